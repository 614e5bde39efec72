-- Per-service check options (docs/monitoring.md, "Check options"), the amber "slow" threshold,
-- and the day a certificate warning was last told, so it is told at most once per day.
ALTER TABLE services
  ADD COLUMN method ENUM('GET', 'HEAD') NOT NULL DEFAULT 'GET',
  ADD COLUMN expected_status VARCHAR(255) NULL,
  ADD COLUMN keyword VARCHAR(255) NULL,
  ADD COLUMN keyword_absent BOOLEAN NOT NULL DEFAULT FALSE,
  ADD COLUMN slow_ms INT UNSIGNED NULL;

ALTER TABLE service_state ADD COLUMN cert_warned_at DATETIME(3) NULL;
