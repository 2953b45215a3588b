-- The system service: platform-wide texts and tenant-scoped administration.

-- Administrators' texts for application error codes; every process reloads the table into
-- memory (ERROR_TEXT_REFRESH_INTERVAL), so the error handler never queries it. No row: the
-- default text of the code.
CREATE TABLE sys_error_texts (
  code integer PRIMARY KEY,
  message text NOT NULL,
  updated_by bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
