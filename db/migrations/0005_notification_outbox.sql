-- The durable outbox of notifications: one row per (channel, event). A state change writes its
-- rows in the same transaction as the change itself; senders claim rows with a lease, mark each
-- delivered or schedule a retry with backoff. The unique event key per channel makes a repeated
-- enqueue (a retried transaction, a second dozord) harmless: at most one message per event.
CREATE TABLE notification_outbox (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  channel_id BIGINT UNSIGNED NOT NULL,
  user_id BIGINT UNSIGNED NOT NULL,
  event_key VARCHAR(191) NOT NULL,
  kind VARCHAR(32) NOT NULL,
  payload JSON NOT NULL,
  state VARCHAR(16) NOT NULL DEFAULT 'pending',
  attempts INT UNSIGNED NOT NULL DEFAULT 0,
  next_attempt_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  claimed_by VARCHAR(128) NULL,
  lease_until DATETIME(3) NULL,
  last_error VARCHAR(1024) NULL,
  created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  sent_at DATETIME(3) NULL,
  UNIQUE KEY uq_outbox_event (channel_id, event_key),
  KEY ix_outbox_due (state, next_attempt_at),
  KEY ix_outbox_user (user_id, created_at),
  CONSTRAINT fk_outbox_channel FOREIGN KEY (channel_id) REFERENCES channels (id) ON DELETE CASCADE,
  CONSTRAINT fk_outbox_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
