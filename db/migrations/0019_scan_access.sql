-- Who may scan what (issue 9 §3, docs/scan.md "Who may scan what"): an active scan of a target
-- outside the caller's own services needs an admin's grant (or admin rights, or the install-wide
-- scanner.scan_any_target). Every scan decision, allowed or refused, is logged: who, what, when.
CREATE TABLE scan_grants (
  user_id BIGINT UNSIGNED NOT NULL PRIMARY KEY,
  granted_by BIGINT UNSIGNED NULL,  -- the admin (NULL once that admin is deleted)
  granted_at DATETIME(3) NOT NULL,
  CONSTRAINT fk_scan_grants_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
  CONSTRAINT fk_scan_grants_admin FOREIGN KEY (granted_by) REFERENCES users (id) ON DELETE SET NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE scan_log (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  user_id BIGINT UNSIGNED NOT NULL,
  kind VARCHAR(16) NOT NULL,        -- owasp | scanner | xxe | ssrf | endpoints | … (the task kinds' names)
  target VARCHAR(2083) NOT NULL,
  via VARCHAR(16) NOT NULL,         -- inline | task | schedule
  allowed TINYINT(1) NOT NULL,
  reason VARCHAR(32) NOT NULL,      -- admin | grant | everyone | own_service | not_owned
  created_at DATETIME(3) NOT NULL,
  KEY ix_scan_log_user (user_id, id),
  KEY ix_scan_log_time (created_at),
  CONSTRAINT fk_scan_log_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
