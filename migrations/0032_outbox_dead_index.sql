-- Each outbox's dead rows are counted whenever its service's /metrics is read (the monitor's
-- sampler every round, Prometheus): a partial index keeps that count from reading the delivered
-- rows of the last week. Pending rows have theirs already (bpm_outbox_due, audit_notify_outbox_due).
CREATE INDEX bpm_outbox_dead ON bpm_outbox (id) WHERE status = 'dead';
CREATE INDEX audit_notify_outbox_dead ON audit_notify_outbox (id) WHERE status = 'dead';
