-- Menu entries for pages that only platform administrators may use (issue 18). Approvals
-- administration and the OAuth2 clients need no permission code but a platform administrator;
-- the monitor, error texts, tenants, packages, the menu tree and the code generator need both.
-- Until now every user's tree listed the first kind and the console hid them by its own table:
-- `GET /api/v1/menus/my` now leaves them out for everyone else.
ALTER TABLE iam_menus ADD COLUMN platform_only boolean NOT NULL DEFAULT false;

UPDATE iam_menus SET platform_only = true
  WHERE path IN ('/approvals/instances', '/approvals/analytics', '/system/oauth-clients',
                 '/system/codegen', '/system/error-texts', '/monitor', '/admin/tenants',
                 '/admin/packages', '/admin/menus');
UPDATE iam_menus SET platform_only = true
  WHERE kind = 'directory' AND name = 'menu.approvals' AND parent_id IS NULL;
