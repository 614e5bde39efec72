-- One POST notify/test in flight per user (docs/notifications.md "Test messages"): the request
-- claims its user's row with a lease before it sends and deletes it when done; a second request
-- meanwhile is answered 429. A process that dies mid-test leaves a row that expires with its
-- lease. A row per user, so hosts of a scale-out share the bound.
CREATE TABLE notify_test_claims (
  user_id BIGINT UNSIGNED NOT NULL PRIMARY KEY,
  claimed_by VARCHAR(128) NOT NULL,
  lease_until DATETIME(3) NOT NULL,
  CONSTRAINT fk_notify_test_claims_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
