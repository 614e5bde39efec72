-- Document editing (docs/vault.md "Document editing"): the identity of the file a key was
-- issued for (inode, size, mtime in ns), so that a key is reused only while the file is still
-- that file and a callback for a file changed by another route (upload, save, rename, delete)
-- writes nothing; and the force-saves (status 6) already written, so a replay writes once.
ALTER TABLE vault_docedit
  ADD COLUMN file_ino BIGINT UNSIGNED NULL,
  ADD COLUMN file_size BIGINT NULL,
  ADD COLUMN file_mtime_ns BIGINT NULL;

CREATE TABLE vault_docedit_forcesaved (
  doc_key VARCHAR(128) NOT NULL,
  digest CHAR(64) NOT NULL,  -- SHA-256 hex of the callback's url and changesurl
  saved_at DATETIME(3) NOT NULL,
  PRIMARY KEY (doc_key, digest)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
