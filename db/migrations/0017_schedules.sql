-- Recurring scans of a service (issue 9 §1, docs/tasks.md "Schedules"): dozord queues a task when
-- next_run_at has come, and moves next_run_at in the same transaction, so a run is never queued
-- twice and one missed while every dozord was down is queued once when one is back.
CREATE TABLE schedules (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  user_id BIGINT UNSIGNED NOT NULL,
  service_id BIGINT UNSIGNED NOT NULL,
  kind VARCHAR(16) NOT NULL,
  interval_hours INT UNSIGNED NOT NULL,
  next_run_at DATETIME(3) NOT NULL,
  last_task_id CHAR(22) CHARACTER SET ascii COLLATE ascii_bin NULL,
  last_run_at DATETIME(3) NULL,
  created_at DATETIME(3) NOT NULL,
  UNIQUE KEY ux_schedules_service_kind (service_id, kind),
  KEY ix_schedules_due (next_run_at),
  KEY ix_schedules_user (user_id, id),
  CONSTRAINT fk_schedules_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
  CONSTRAINT fk_schedules_service FOREIGN KEY (service_id) REFERENCES services (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
