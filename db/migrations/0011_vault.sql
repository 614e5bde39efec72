-- The file vault (issue 10, docs/vault.md): sessions, per-path rules, trash, usage, audit log.
-- Files live on disk under vault.root; these tables hold who may do what and what was done.

-- Server-side sessions: only the SHA-256 of the random cookie value is stored. token_version is
-- the user's at login: a password change, deactivation or demotion bumps the user's, and every
-- session of the older version stops working at once.
CREATE TABLE vault_sessions (
  id_hash BINARY(32) NOT NULL PRIMARY KEY,
  user_id BIGINT UNSIGNED NOT NULL,
  token_version BIGINT NOT NULL,
  created_at DATETIME(3) NOT NULL,
  last_seen_at DATETIME(3) NOT NULL,
  remote_addr VARCHAR(64) NOT NULL DEFAULT '',
  KEY ix_vault_sessions_user (user_id),
  KEY ix_vault_sessions_seen (last_seen_at),
  CONSTRAINT fk_vault_sessions_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Rights on canonical path prefixes (whole components; '' is the root). The most specific rule
-- of a user decides; a rule with no rights denies what a shorter one grants.
CREATE TABLE vault_rules (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  user_id BIGINT UNSIGNED NOT NULL,
  path VARCHAR(1024) NOT NULL,
  path_hash BINARY(32) NOT NULL,  -- UNHEX(SHA2(path, 256)): unique per user whatever the length
  can_read BOOLEAN NOT NULL DEFAULT FALSE,
  can_write BOOLEAN NOT NULL DEFAULT FALSE,
  can_delete BOOLEAN NOT NULL DEFAULT FALSE,
  created_at DATETIME(3) NOT NULL,
  UNIQUE KEY ux_vault_rules_user_path (user_id, path_hash),
  CONSTRAINT fk_vault_rules_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- What a user moved to the trash; the bytes are in vault.root/trash/<user_id>/<id>.
CREATE TABLE vault_trash (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  user_id BIGINT UNSIGNED NOT NULL,
  original_path VARCHAR(4096) NOT NULL,
  is_dir BOOLEAN NOT NULL,
  size BIGINT UNSIGNED NOT NULL DEFAULT 0,
  trashed_at DATETIME(3) NOT NULL,
  KEY ix_vault_trash_user (user_id, trashed_at),
  KEY ix_vault_trash_age (trashed_at),
  CONSTRAINT fk_vault_trash_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Bytes a user's uploads and saves added (net of what they replaced), trash included until purged.
CREATE TABLE vault_usage (
  user_id BIGINT UNSIGNED NOT NULL PRIMARY KEY,
  bytes BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT fk_vault_usage_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Every mutating action: who, what, when, from where. Kept when the user is deleted (user_id is
-- then NULL, the name stays).
CREATE TABLE vault_audit (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  at DATETIME(3) NOT NULL,
  user_id BIGINT UNSIGNED NULL,
  username VARCHAR(64) NOT NULL,
  remote_addr VARCHAR(64) NOT NULL DEFAULT '',
  action VARCHAR(32) NOT NULL,
  path VARCHAR(4096) NOT NULL DEFAULT '',
  target VARCHAR(4096) NOT NULL DEFAULT '',
  outcome VARCHAR(16) NOT NULL,
  KEY ix_vault_audit_at (at),
  KEY ix_vault_audit_user (user_id, at),
  CONSTRAINT fk_vault_audit_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE SET NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
