-- Scheduled monitoring by dozord (docs/monitoring.md).

-- The monitor's view of each service: debounced state, when it is next due, and which dozord
-- holds it (a lease, so a dead dozord's services are taken over once it expires). Kept apart
-- from `services` so a check never touches the owner's row or `services_rev`.
CREATE TABLE service_state (
  service_id BIGINT UNSIGNED NOT NULL PRIMARY KEY,
  state ENUM('unknown', 'up', 'down') NOT NULL DEFAULT 'unknown',
  failures INT UNSIGNED NOT NULL DEFAULT 0,
  successes INT UNSIGNED NOT NULL DEFAULT 0,
  down_since DATETIME(3) NULL,
  open_incident_id BIGINT UNSIGNED NULL,
  last_checked_at DATETIME(3) NULL,
  last_available BOOLEAN NULL,
  last_response_time INT UNSIGNED NULL,
  last_error VARCHAR(1024) NULL,
  cert_expires_at DATETIME NULL,
  next_check_at DATETIME(3) NOT NULL,
  lease_owner VARCHAR(128) NULL,
  lease_until DATETIME(3) NULL,
  -- Counters for /metrics (Prometheus counters: they only grow).
  checks_total BIGINT UNSIGNED NOT NULL DEFAULT 0,
  failures_total BIGINT UNSIGNED NOT NULL DEFAULT 0,
  KEY ix_state_due (next_check_at),
  CONSTRAINT fk_state_service FOREIGN KEY (service_id) REFERENCES services (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- One row per down period.
CREATE TABLE incidents (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  service_id BIGINT UNSIGNED NOT NULL,
  started_at DATETIME(3) NOT NULL,
  ended_at DATETIME(3) NULL,
  cause VARCHAR(1024) NOT NULL,
  KEY ix_incidents_service (service_id, started_at),
  CONSTRAINT fk_incidents_service FOREIGN KEY (service_id) REFERENCES services (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Phases and certificate expiry of each check, and the location of the dozord that ran it.
ALTER TABLE checks
  ADD COLUMN location VARCHAR(64) NULL,
  ADD COLUMN dns_ms INT UNSIGNED NULL,
  ADD COLUMN connect_ms INT UNSIGNED NULL,
  ADD COLUMN tls_ms INT UNSIGNED NULL,
  ADD COLUMN first_byte_ms INT UNSIGNED NULL,
  ADD COLUMN cert_expires_at DATETIME NULL;

-- Every dozord writes its row every 10 s.
CREATE TABLE daemon_heartbeats (
  owner VARCHAR(128) NOT NULL PRIMARY KEY,
  location VARCHAR(64) NOT NULL,
  pid INT UNSIGNED NOT NULL,
  started_at DATETIME(3) NOT NULL,
  beat_at DATETIME(3) NOT NULL,
  checks_done BIGINT UNSIGNED NOT NULL DEFAULT 0,
  -- The process's own figures, for /metrics: memory, CPU time, checks in flight.
  rss_bytes BIGINT UNSIGNED NOT NULL DEFAULT 0,
  cpu_ms BIGINT UNSIGNED NOT NULL DEFAULT 0,
  in_flight INT UNSIGNED NOT NULL DEFAULT 0
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Time-weighted accounting (docs/monitoring.md, "Rollups"): the time up to which this service's
-- state has been counted into the rollups; the next check counts (accounted_until, checked_at].
ALTER TABLE service_state ADD COLUMN accounted_until DATETIME(3) NULL;

-- Retention deletes raw checks by age alone: it needs its own index.
ALTER TABLE checks ADD KEY ix_checks_time (checked_at);

-- Per service per hour and per day (UTC): checks, failures, time observed and time down (the
-- debounced state, weighted by time), and response times: count, sum, max, p95 and the
-- histogram the p95 comes from (engines/monitor/rollup: mergeable, so a window of any length
-- gets its p95 from the sum of its buckets' histograms).
CREATE TABLE rollup_hourly (
  service_id BIGINT UNSIGNED NOT NULL,
  bucket_start DATETIME NOT NULL,
  checks INT UNSIGNED NOT NULL DEFAULT 0,
  failures INT UNSIGNED NOT NULL DEFAULT 0,
  observed_ms BIGINT UNSIGNED NOT NULL DEFAULT 0,
  down_ms BIGINT UNSIGNED NOT NULL DEFAULT 0,
  rt_count INT UNSIGNED NOT NULL DEFAULT 0,
  rt_sum_ms BIGINT UNSIGNED NOT NULL DEFAULT 0,
  rt_max_ms INT UNSIGNED NULL,
  rt_p95_ms INT UNSIGNED NULL,
  rt_hist TEXT NOT NULL,
  PRIMARY KEY (service_id, bucket_start),
  KEY ix_rollup_hourly_time (bucket_start),
  CONSTRAINT fk_rollup_hourly_service FOREIGN KEY (service_id) REFERENCES services (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE rollup_daily (
  service_id BIGINT UNSIGNED NOT NULL,
  bucket_start DATETIME NOT NULL,
  checks INT UNSIGNED NOT NULL DEFAULT 0,
  failures INT UNSIGNED NOT NULL DEFAULT 0,
  observed_ms BIGINT UNSIGNED NOT NULL DEFAULT 0,
  down_ms BIGINT UNSIGNED NOT NULL DEFAULT 0,
  rt_count INT UNSIGNED NOT NULL DEFAULT 0,
  rt_sum_ms BIGINT UNSIGNED NOT NULL DEFAULT 0,
  rt_max_ms INT UNSIGNED NULL,
  rt_p95_ms INT UNSIGNED NULL,
  rt_hist TEXT NOT NULL,
  PRIMARY KEY (service_id, bucket_start),
  KEY ix_rollup_daily_time (bucket_start),
  CONSTRAINT fk_rollup_daily_service FOREIGN KEY (service_id) REFERENCES services (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
