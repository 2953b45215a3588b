-- Operation-log entries of requests for which no principal was established (a failed sign-in,
-- a request the gateway refused before authentication) are flagged instead of being attributed
-- to the tenant their body named: anyone can name any tenant. They are stored in the default
-- tenant. A constant default adds the column without rewriting the table.
ALTER TABLE audit_operation_logs ADD COLUMN anonymous boolean NOT NULL DEFAULT false;
