-- Session revocation that reaches every replica, and sessions that end.
--
-- iam_users.session_version is bumped by identity when an administrator sets a user's password
-- or disables the user. Every sign-in session records the version it was opened under and every
-- access token carries it: a mismatch ends the session (refresh refuses it, forward-auth refuses
-- the token once the user cache entry is refreshed).
ALTER TABLE iam_users ADD COLUMN session_version integer NOT NULL DEFAULT 1;
ALTER TABLE auth_sessions ADD COLUMN user_version integer NOT NULL DEFAULT 1;

-- A session family's absolute end (SESSION_MAX_AGE): refresh never issues past it.
ALTER TABLE auth_sessions ADD COLUMN expires_at timestamptz;
UPDATE auth_sessions SET expires_at = created_at + interval '30 days';
ALTER TABLE auth_sessions ALTER COLUMN expires_at SET NOT NULL;

-- Session ids travel in access tokens and identity headers: the service draws them at random
-- instead of from a sequence, so one id says nothing about another.
ALTER TABLE auth_sessions ALTER COLUMN id DROP IDENTITY;
