-- Stored audits (issue 8, docs/audit.md "Stored audits and evidence"): one row per audit with its
-- full JSON, its findings, and each finding's evidence. Owned by a user; deleting the user, or
-- the audit (retention keeps the newest limits::kAuditsKeptPerTarget per user and target),
-- deletes the rest. Targets are looked up by UNHEX(SHA2(target, 256)): a URL may be 2083 characters.
CREATE TABLE audits (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  user_id BIGINT UNSIGNED NOT NULL,
  target VARCHAR(2083) NOT NULL,
  target_hash BINARY(32) NOT NULL,
  kind VARCHAR(16) NOT NULL,
  score INT NULL,
  grade VARCHAR(2) NULL,
  count_critical INT UNSIGNED NOT NULL DEFAULT 0,
  count_high INT UNSIGNED NOT NULL DEFAULT 0,
  count_medium INT UNSIGNED NOT NULL DEFAULT 0,
  count_low INT UNSIGNED NOT NULL DEFAULT 0,
  count_info INT UNSIGNED NOT NULL DEFAULT 0,
  started_at DATETIME(3) NOT NULL,
  finished_at DATETIME(3) NOT NULL,
  result LONGTEXT NOT NULL,
  -- "the latest audit of a target for a user" and the retention count: newest id first.
  KEY ix_audits_user_target (user_id, target_hash, id),
  KEY ix_audits_user (user_id, id),
  CONSTRAINT fk_audits_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE findings (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  audit_id BIGINT UNSIGNED NOT NULL,
  check_id VARCHAR(100) NOT NULL,
  title VARCHAR(255) NOT NULL,
  severity VARCHAR(8) NOT NULL,  -- info | low | medium | high | critical
  confidence VARCHAR(16) NOT NULL,
  owasp VARCHAR(16) NULL,
  cwe INT NULL,
  description TEXT NOT NULL,
  recommendation TEXT NOT NULL,
  refs TEXT NOT NULL,  -- JSON array of CVE ids and advisory URLs
  KEY ix_findings_audit (audit_id),
  CONSTRAINT fk_findings_audit FOREIGN KEY (audit_id) REFERENCES audits (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- user_id and target_hash repeat the audit's so "the newest evidence of a target for a user" is
-- one index range, newest first, without reading audits.
CREATE TABLE evidence (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  finding_id BIGINT UNSIGNED NOT NULL,
  audit_id BIGINT UNSIGNED NOT NULL,
  user_id BIGINT UNSIGNED NOT NULL,
  target_hash BINARY(32) NOT NULL,
  url VARCHAR(2083) NOT NULL,
  excerpt TEXT NOT NULL,
  note VARCHAR(255) NOT NULL DEFAULT '',
  exchange MEDIUMTEXT NULL,  -- the exchange record as JSON (engines/net/exchange_json.hpp)
  created_at DATETIME(3) NOT NULL,
  KEY ix_evidence_user_target (user_id, target_hash, id),
  KEY ix_evidence_finding (finding_id),
  CONSTRAINT fk_evidence_finding FOREIGN KEY (finding_id) REFERENCES findings (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
