-- Delivered outbox rows are deleted once older than BPM_OUTBOX_KEEP_DELIVERED (7 days by
-- default); these indexes let the hourly prune find them without reading the whole table.
-- Dead rows stay: they are what an operator looks at after an alert.
CREATE INDEX bpm_outbox_delivered ON bpm_outbox (delivered_at) WHERE status = 'delivered';
CREATE INDEX audit_notify_outbox_delivered ON audit_notify_outbox (delivered_at)
  WHERE status = 'delivered';
