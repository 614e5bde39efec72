-- Kiosk mode (spec §4.2, §4.6): one state per user, shared by /api/v1, /api and /api/security.
-- The current site is derived from these columns and the clock; nothing runs in the background.
CREATE TABLE kiosk_state (
  user_id BIGINT UNSIGNED NOT NULL PRIMARY KEY,
  running BOOLEAN NOT NULL DEFAULT FALSE,
  interval_seconds INT UNSIGNED NOT NULL DEFAULT 30,
  base_index BIGINT NOT NULL DEFAULT 0,
  started_at DATETIME(3) NOT NULL,
  CONSTRAINT fk_kiosk_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
