-- Multi-location confirmation (monitor.confirm_locations, docs/monitoring.md): the locations
-- that saw the current run of failures, and whether the service waits for another location's
-- re-check before it may be called down. 16 locations of at most 64 characters, comma-separated.
ALTER TABLE service_state
  ADD COLUMN failed_locations VARCHAR(1040) NOT NULL DEFAULT '',
  ADD COLUMN awaiting_location BOOLEAN NOT NULL DEFAULT 0;
