-- Background tasks (issue 9 §1, docs/tasks.md): the queue dozord works from. Ids are 128 random
-- bits in base64url (the status route needs no token). A task is claimed with FOR UPDATE SKIP
-- LOCKED and a lease; a runner that dies leaves the lease to expire and the task is queued again
-- (at most tasks.max_attempts claims in all).
CREATE TABLE tasks (
  id CHAR(22) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY,
  user_id BIGINT UNSIGNED NOT NULL,
  kind VARCHAR(16) NOT NULL,
  target VARCHAR(2083) NOT NULL,
  origin_hash BINARY(32) NOT NULL,  -- SHA-256 of the target's origin: one active task per origin
  service_id BIGINT UNSIGNED NULL,  -- set when started for a service (POST /api/scan/{id}/start)
  options TEXT NOT NULL,            -- the validated options as JSON
  state VARCHAR(10) NOT NULL DEFAULT 'queued',  -- queued | running | succeeded | failed | cancelled
  progress TINYINT UNSIGNED NOT NULL DEFAULT 0,
  phase VARCHAR(100) NOT NULL DEFAULT '',
  attempts INT UNSIGNED NOT NULL DEFAULT 0,
  cancel_requested TINYINT(1) NOT NULL DEFAULT 0,
  claimed_by VARCHAR(128) NULL,
  lease_until DATETIME(3) NULL,
  created_at DATETIME(3) NOT NULL,
  started_at DATETIME(3) NULL,
  finished_at DATETIME(3) NULL,
  error TEXT NULL,
  result LONGTEXT NULL,            -- the result JSON (for audits: the stored audit, also audit_id)
  audit_id BIGINT UNSIGNED NULL,
  -- the claim: the oldest queued first; the reaper: running rows whose lease has passed.
  KEY ix_tasks_state (state, created_at),
  KEY ix_tasks_lease (state, lease_until),
  KEY ix_tasks_user (user_id, created_at),
  KEY ix_tasks_user_state (user_id, state),
  KEY ix_tasks_origin (origin_hash, state),
  CONSTRAINT fk_tasks_user FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- One row per origin with a running task: its primary key makes "one active scan per origin" hold
-- across every dozord, whatever their claims race.
CREATE TABLE task_origins (
  origin_hash BINARY(32) NOT NULL PRIMARY KEY,
  task_id CHAR(22) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  CONSTRAINT fk_task_origins_task FOREIGN KEY (task_id) REFERENCES tasks (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
