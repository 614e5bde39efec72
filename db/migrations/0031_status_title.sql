-- The public title of a group's status page (issue 28 §1): what visitors read at the top of
-- /status/{slug}; the group's own name (often an internal one) when not set.
ALTER TABLE `groups` ADD COLUMN status_title VARCHAR(255) NULL;
