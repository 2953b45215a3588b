-- Job heartbeats: each periodic job reports its last round here (the monitor service reads
-- them; a heartbeat older than twice its interval is stale).
CREATE TABLE mon_job_heartbeats (
  name text PRIMARY KEY,
  last_run_at timestamptz NOT NULL,
  interval_seconds integer NOT NULL,
  status text NOT NULL CHECK (status IN ('ok', 'error')),
  message text
);
