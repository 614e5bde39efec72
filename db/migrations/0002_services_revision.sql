-- A per-user revision of the service list, bumped with every change to the user's services or
-- their last check. Reading it with the user row (done for every authenticated request) tells
-- whether a cached list is still current, on any host, without querying the list.
ALTER TABLE users ADD COLUMN services_rev BIGINT UNSIGNED NOT NULL DEFAULT 0;
