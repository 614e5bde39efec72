-- Whose home folder is /home/<username> (issue 26 §3, docs/vault.md "Homes"). Homes were found by
-- name alone, and the folder of a deleted account stayed on disk for the next account of that name.
-- A home is now the account's only once dozor-fcgi has made it for that account id:
--   'new'   an account made after this migration: whatever lies at /home/<username> is not its own
--           (a deleted account's folder, something an admin put there) and is moved to
--           /home-archive before a fresh, empty folder is made; rules of other users on that path
--           older than the account are dropped;
--   'adopt' an account that existed before this migration: the folder there is its own (made if missing);
--   'ready' made; only now does the account hold its implicit rights on /home/<username>.
-- claimed_until: the lease of the dozor-fcgi (or dozord) that is making the home (a claim).
-- An account without a row is treated as 'new' (the row is then written).
CREATE TABLE vault_homes (
  user_id BIGINT UNSIGNED NOT NULL PRIMARY KEY,
  state VARCHAR(8) NOT NULL,
  claimed_until DATETIME(3) NULL,
  KEY ix_vault_homes_state (state),
  CONSTRAINT fk_vault_homes_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO vault_homes (user_id, state) SELECT id, 'adopt' FROM users;
