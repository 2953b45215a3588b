-- "What I handed on" reads a user's transfer and delegate entries from the process log, newest
-- first: a partial index keeps that a range read however long the log grows.
CREATE INDEX bpm_logs_handovers ON bpm_logs (tenant_id, operator_id, id DESC)
  WHERE action IN ('transfer', 'delegate');
