-- What a process-log entry is about beyond its comment: whom a task was transferred or delegated
-- to ({"to_user_id": n}), whom add-sign added ({"user_ids": [...]}), and an approver's form
-- edits ({"changes": [{"field", "before", "after"}]}). NULL for the entries that need nothing.
ALTER TABLE bpm_logs ADD COLUMN details jsonb;

-- When the initiator last urged a task's holder (at most once an hour per task).
ALTER TABLE bpm_tasks ADD COLUMN urged_at timestamptz;
