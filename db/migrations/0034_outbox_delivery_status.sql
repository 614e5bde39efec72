-- Each channel's last delivery and last failure, for the notification settings page (issue 28
-- §1): the latest failed attempt of a message is kept (`failed_at`, `failure`) even after a later
-- retry delivered it — `last_error` keeps its own meaning (the error of the row's last attempt,
-- cleared on success). The two indexes answer "the latest sent / failed row of a channel" from
-- the index alone, however long the outbox grows. Rows that failed before this migration get
-- their `failed_at` at their next failed attempt.
ALTER TABLE notification_outbox
  ADD COLUMN failed_at DATETIME(3) NULL,
  ADD COLUMN failure VARCHAR(1024) NULL,
  ADD KEY ix_outbox_channel_sent (channel_id, sent_at),
  ADD KEY ix_outbox_channel_failed (channel_id, failed_at);
