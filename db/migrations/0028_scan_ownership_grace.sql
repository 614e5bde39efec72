-- The transition to proof of control (docs/scan.md "Who may scan what"): the web services that
-- exist when this migration runs keep the old rule (a service's host may be scanned) for 30 days,
-- so that no installation's scans stop overnight; the scan log says `own_service_grace` and the
-- answer tells the user to verify. The grace holds only while the service keeps this URL, and
-- scanner.ownership_grace = false ends it at once. Services added later need the proof.
CREATE TABLE scan_ownership_grace (
  service_id BIGINT UNSIGNED NOT NULL PRIMARY KEY,
  url VARCHAR(2083) NOT NULL,      -- the service's URL when the grace was given
  until DATETIME(3) NOT NULL,
  CONSTRAINT fk_scan_ownership_grace_service FOREIGN KEY (service_id) REFERENCES services (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO scan_ownership_grace (service_id, url, until)
  SELECT id, url, NOW(3) + INTERVAL 30 DAY FROM services WHERE url LIKE 'http://%' OR url LIKE 'https://%';
