-- Rollups and /metrics figures for dozord (docs/monitoring.md, "Rollups" and "/metrics").

-- Counters for /metrics (Prometheus counters: they only grow).
ALTER TABLE service_state
  ADD COLUMN checks_total BIGINT UNSIGNED NOT NULL DEFAULT 0,
  ADD COLUMN failures_total BIGINT UNSIGNED NOT NULL DEFAULT 0;

-- The process's own figures, for /metrics: memory, CPU time, checks in flight.
ALTER TABLE daemon_heartbeats
  ADD COLUMN rss_bytes BIGINT UNSIGNED NOT NULL DEFAULT 0,
  ADD COLUMN cpu_ms BIGINT UNSIGNED NOT NULL DEFAULT 0,
  ADD COLUMN in_flight INT UNSIGNED NOT NULL DEFAULT 0;

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
