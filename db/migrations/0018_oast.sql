-- Out-of-band interaction testing (issue 9 §2, docs/scan.md "XXE and SSRF"). A probe row is
-- written by the scanner before the probe is sent: its token (128 random bits, base64url) is the
-- last path segment of the URL the target is asked to fetch (/oast/{token}), so a hit names the
-- exact request and parameter that caused it. Hits of unknown or expired tokens are not stored;
-- each probe keeps at most limits::oast::kHitsPerProbe hits; probes (and their hits) are purged
-- limits::oast::kRetentionDays after they expire.
CREATE TABLE oast_probes (
  token CHAR(22) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY,
  marker CHAR(22) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,  -- the body /oast answers with
  kind VARCHAR(16) NOT NULL,          -- xxe | ssrf
  url VARCHAR(2083) NOT NULL,         -- the request of the probe
  method VARCHAR(10) NOT NULL,
  param VARCHAR(255) NOT NULL,        -- the parameter, or '' for an XML body
  payload VARCHAR(2048) NOT NULL,     -- what was sent (the value or the XML document)
  hits INT UNSIGNED NOT NULL DEFAULT 0,
  created_at DATETIME(3) NOT NULL,
  expires_at DATETIME(3) NOT NULL,    -- hits after this are answered 404 and not stored
  KEY ix_oast_probes_expires (expires_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE oast_hits (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  token CHAR(22) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  received_at DATETIME(3) NOT NULL,
  source VARCHAR(64) NOT NULL,        -- the address that connected (nginx's $remote_addr)
  method VARCHAR(16) NOT NULL,
  path VARCHAR(2048) NOT NULL,        -- the raw request target
  headers TEXT NOT NULL,              -- JSON object, bounded (limits::oast)
  body_excerpt VARCHAR(1024) NOT NULL,
  KEY ix_oast_hits_token (token, id),
  CONSTRAINT fk_oast_hits_probe FOREIGN KEY (token) REFERENCES oast_probes (token) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
