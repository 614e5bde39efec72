-- Private status pages stay private (issue 26 §6). A slug was unique across all users, so the 409
-- "already taken" told anyone that some user's unpublished page held it. Now a slug is unique per
-- owner, and among published pages only: public_slug is the slug of a published page and NULL
-- otherwise, so another user's private slug never conflicts, and a conflict names either the
-- caller's own group or a page anyone can open at /status/{slug}. Slugs were unique before, so
-- existing rows satisfy both keys.
ALTER TABLE `groups`
  DROP INDEX uq_groups_status_slug,
  ADD COLUMN public_slug VARCHAR(64) AS (IF(status_public, status_slug, NULL)) PERSISTENT,
  ADD UNIQUE KEY uq_groups_public_slug (public_slug),
  ADD UNIQUE KEY uq_groups_owner_slug (user_id, status_slug);
