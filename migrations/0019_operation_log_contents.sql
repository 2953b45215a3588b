-- What the operation log may hold (issue 15).
--
-- Anonymous entries (no principal established: a refused or failed request of any tenant) no
-- longer sit in the default tenant, where its log readers saw every tenant's refusals: they are
-- stored without a tenant and only platform admins read them.
ALTER TABLE audit_operation_logs ALTER COLUMN tenant_id DROP NOT NULL;
UPDATE audit_operation_logs SET tenant_id = NULL WHERE anonymous;

-- Bodies written before the recorder left them out. The row (who, when, which route, status)
-- stays; the body becomes the marker the recorder now writes. The match is deliberately broad:
-- clearing a harmless body loses little, keeping a secret would not be undone.
--
-- 1. Routes whose bodies carry a second factor, a password or reset token, or an OAuth client
--    secret shown once: /me/totp/*, /me/password, /password/*, and the creation and secret
--    rotation of OAuth clients. Paths are matched as stored (raw), so loosely.
UPDATE audit_operation_logs
SET request_body = CASE WHEN request_body IS NULL THEN NULL ELSE '[omitted]' END,
    response_body = CASE WHEN response_body IS NULL THEN NULL ELSE '[omitted]' END
WHERE lower(path) ~ '/(me/+totp|me/+password|password)(/|$)'
   OR (method = 'POST' AND lower(path) ~ '/oauth2/+clients(/+[^/]+/+secret)?/*$');

-- 2. Bodies of other routes that name a second factor (`otpauth_uri`, `recovery_codes`,
--    `totp_code` on /login) unmasked, or any mention of one: each such body is cleared.
UPDATE audit_operation_logs SET request_body = '[omitted]'
WHERE request_body ~* '(otp[-_]?auth|recovery|totp)' AND request_body <> '[omitted]';
UPDATE audit_operation_logs SET response_body = '[omitted]'
WHERE response_body ~* '(otp[-_]?auth|recovery|totp)' AND response_body <> '[omitted]';

-- 3. BPM bodies: form values were hidden, but comments and the before/after of approvers' edits
--    (timeline answers) were not. The recorder now keeps BPM bodies by an allow-list that SQL
--    cannot apply, so earlier BPM bodies are cleared.
UPDATE audit_operation_logs
SET request_body = CASE WHEN request_body IS NULL THEN NULL ELSE '[omitted]' END,
    response_body = CASE WHEN response_body IS NULL THEN NULL ELSE '[omitted]' END
WHERE module = 'bpm' AND (request_body IS NOT NULL OR response_body IS NOT NULL);
