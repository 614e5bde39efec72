-- Proof of control for active scans (issue 26 §2, docs/scan.md "Who may scan what"): owning a
-- service is no proof of owning a site. A user asks a token for a site (its origin), then proves
-- control by serving it at /.well-known/dozor-verification/<token> (HTTP) or publishing the TXT
-- record dozor-verification=<token> on the host name (DNS). The proof covers the whole host (DNS,
-- or HTTP on the scheme's default port) or only that origin (HTTP on another port).
CREATE TABLE scan_verifications (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  user_id BIGINT UNSIGNED NOT NULL,
  host VARCHAR(255) NOT NULL,      -- lower case, as engines/scan/access compares hosts
  origin VARCHAR(300) NOT NULL,    -- scheme://host:port the token was asked for
  token VARCHAR(64) NOT NULL,
  method VARCHAR(8) NULL,          -- http | dns: how control was last proven (NULL: never)
  scope VARCHAR(8) NULL,           -- host | origin: what that proof covers
  created_at DATETIME(3) NOT NULL,
  checked_at DATETIME(3) NULL,     -- the last attempt, proven or not
  verified_at DATETIME(3) NULL,
  expires_at DATETIME(3) NULL,     -- verified_at + limits::verify::kValidDays
  last_error VARCHAR(255) NULL,    -- why the last attempt failed (NULL when it succeeded)
  UNIQUE KEY ux_scan_verifications_origin (user_id, origin),
  KEY ix_scan_verifications_host (user_id, host),
  CONSTRAINT fk_scan_verifications_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
