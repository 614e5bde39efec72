-- Login hardening (issue 12 §2, docs/login.md).
--
-- 1. One canonical username per account. username_canonical holds the NFKC_Casefold form of
--    the name (engines/auth/username.cpp) under a binary collation and a UNIQUE index: two
--    spellings are one name exactly when their canonical forms are equal, in every path.
--    SQL cannot compute NFKC_Casefold, so `dozorctl migrate` fills the column right after
--    these statements (the hook for version 3 in programs/dozorctl.cpp). It refuses, naming
--    the rows, when two existing accounts share a canonical name or a name has none; this
--    version then stays unrecorded, and the next run, after the rows were renamed, finishes
--    it. The hook also makes the column NOT NULL and drops the old case-insensitive
--    uq_users_username, whose collation was a second, different rule.
--    Every statement here is safe to run again.
ALTER TABLE users ADD COLUMN IF NOT EXISTS username_canonical VARCHAR(64)
  CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL AFTER username;
CREATE UNIQUE INDEX IF NOT EXISTS uq_users_username_canonical ON users (username_canonical);

-- 2. The throttle keyed by client and (account, client) instead of by account name. The old
--    rows counted names, a model that is gone: they are dropped with the table (nothing in
--    them outlives 15 minutes anyway). Keys: engines/auth/throttle.hpp. Times are ms since
--    the epoch on the database's clock. Rows expire at expires_ms and are purged on write.
DROP TABLE IF EXISTS login_throttle;
CREATE TABLE login_throttle (
  bucket VARCHAR(96) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY,
  failures INT UNSIGNED NOT NULL DEFAULT 0,
  last_ms BIGINT NOT NULL DEFAULT 0,
  expires_ms BIGINT NOT NULL DEFAULT 0,
  slots CHAR(128) CHARACTER SET ascii COLLATE ascii_bin NULL,
  KEY ix_login_throttle_expiry (expires_ms)
) ENGINE=InnoDB;
