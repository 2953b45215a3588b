-- The monitor service: metric samples (kept 7 days), the sampler's state shared by replicas,
-- alert rules and the alerts they (and expiring certificates) raise.
CREATE TABLE mon_metric_samples (
  id bigserial PRIMARY KEY,
  metric text NOT NULL,
  -- '' for a platform-wide metric (server, database, cache); the service's name otherwise.
  service text NOT NULL DEFAULT '',
  value double precision NOT NULL,
  sampled_at timestamptz NOT NULL
);
CREATE INDEX mon_metric_samples_series ON mon_metric_samples (metric, service, sampled_at);
CREATE INDEX mon_metric_samples_at ON mon_metric_samples (sampled_at);

-- One row: when the last round was written, so replicas racing for a round write it once.
CREATE TABLE mon_sampler_state (
  id integer PRIMARY KEY CHECK (id = 1),
  last_round_at timestamptz NOT NULL
);

-- Each service's HTTP request counters at the last scrape: rates are deltas against these.
CREATE TABLE mon_counter_state (
  service text PRIMARY KEY,
  requests double precision NOT NULL,
  errors double precision NOT NULL,
  scraped_at timestamptz NOT NULL
);

CREATE TABLE mon_alert_rules (
  id bigserial PRIMARY KEY,
  -- The tenant of the recipients (the creator's); rules themselves are platform-wide.
  tenant_id bigint NOT NULL,
  name text NOT NULL,
  metric text NOT NULL,
  service text,
  operator text NOT NULL CHECK (operator IN ('gt', 'lt')),
  threshold double precision NOT NULL,
  duration_seconds integer NOT NULL CHECK (duration_seconds >= 0),
  recipient_user_ids jsonb NOT NULL DEFAULT '[]',
  enabled boolean NOT NULL DEFAULT true,
  created_by bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE mon_alerts (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('rule', 'certificate_expiry')),
  rule_id bigint REFERENCES mon_alert_rules (id) ON DELETE SET NULL,
  certificate_id bigint,
  title text NOT NULL,
  metric text,
  service text,
  status text NOT NULL CHECK (status IN ('firing', 'resolved')),
  -- The value that raised it (the latest sample; for a certificate, the days left).
  value double precision,
  fired_at timestamptz NOT NULL,
  resolved_at timestamptz,
  -- Set once the recipients were notified: a firing alert is notified once.
  notified_at timestamptz
);
-- At most one firing alert per rule and per certificate.
CREATE UNIQUE INDEX mon_alerts_firing_rule ON mon_alerts (rule_id) WHERE status = 'firing' AND kind = 'rule';
CREATE UNIQUE INDEX mon_alerts_firing_certificate ON mon_alerts (certificate_id)
  WHERE status = 'firing' AND kind = 'certificate_expiry';
CREATE INDEX mon_alerts_recent ON mon_alerts (fired_at DESC, id DESC);
