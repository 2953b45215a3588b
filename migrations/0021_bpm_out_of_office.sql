-- Out of office: while a period holds, tasks the rules give a user open for their stand-in.
-- One period per user (setting it again replaces it); `definition_keys` NULL means every
-- definition.
CREATE TABLE bpm_out_of_office (
  tenant_id bigint NOT NULL,
  user_id bigint NOT NULL,
  stand_in_id bigint NOT NULL,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  definition_keys jsonb,
  move_pending boolean NOT NULL DEFAULT false,
  comment text,
  updated_by bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, user_id),
  CHECK (ends_at > starts_at),
  CHECK (stand_in_id <> user_id)
);

-- The person out of office a task was opened for (the holder stands in for them).
ALTER TABLE bpm_tasks ADD COLUMN on_behalf_of_id bigint;
-- How often a deadline fired since it was armed: reminders sent, escalation levels climbed.
ALTER TABLE bpm_tasks ADD COLUMN timeout_count integer NOT NULL DEFAULT 0;
