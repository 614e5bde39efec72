-- Public status pages (issue 7 §4): a group published read-only at /status/{slug}. Opt-in;
-- URLs and failure causes are shown only when the owner says so.
ALTER TABLE `groups`
  ADD COLUMN status_slug VARCHAR(64) NULL,
  ADD COLUMN status_public BOOLEAN NOT NULL DEFAULT FALSE,
  ADD COLUMN status_show_urls BOOLEAN NOT NULL DEFAULT FALSE,
  ADD COLUMN status_announcement TEXT NULL,
  ADD UNIQUE KEY uq_groups_status_slug (status_slug);
