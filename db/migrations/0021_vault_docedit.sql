-- Document editing in the vault (issue 10, docs/vault.md "Document editing"): the document
-- server's key of each file's current version, and the keys whose session was saved, so a
-- replayed status-2 callback finds its key closed and writes nothing.
CREATE TABLE vault_docedit (
  path_hash BINARY(32) NOT NULL PRIMARY KEY,  -- UNHEX(SHA2(path, 256))
  path VARCHAR(1024) NOT NULL,
  doc_key VARCHAR(128) NOT NULL,
  version BIGINT NOT NULL DEFAULT 1,
  opened_by BIGINT UNSIGNED NULL,  -- the user whose session the key belongs to (saves are theirs)
  updated_at DATETIME(3) NOT NULL,
  UNIQUE KEY ux_vault_docedit_key (doc_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE vault_docedit_closed (
  doc_key VARCHAR(128) NOT NULL PRIMARY KEY,
  path VARCHAR(1024) NOT NULL,
  closed_at DATETIME(3) NOT NULL,
  KEY ix_vault_docedit_closed_at (closed_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
