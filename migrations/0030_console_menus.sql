-- The console's navigation as its pages now are (issue 18): identity pages under /admin, the
-- logs under /audit, approvals administration, the monitor and the system pages. Entries keep
-- their ids (a tenant package's menu_ids still name them); an entry an administrator already
-- moved or renamed is left as it is (each update matches the 0023 seed's own values). Names
-- are the console's i18n keys; a page the console does not have yet stays out of its nav.

UPDATE iam_menus SET name = 'menu.identity', icon = 'TeamOutlined', updated_at = now()
  WHERE id = 7 AND name = 'nav.system';
UPDATE iam_menus SET name = 'menu.users', path = '/admin/users', updated_at = now()
  WHERE id = 8 AND path = '/system/users';
UPDATE iam_menus SET name = 'menu.roles', path = '/admin/roles', updated_at = now()
  WHERE id = 9 AND path = '/system/roles';
UPDATE iam_menus SET name = 'menu.departments', path = '/admin/departments', updated_at = now()
  WHERE id = 10 AND path = '/system/departments';
UPDATE iam_menus SET name = 'menu.tenants', path = '/admin/tenants', updated_at = now()
  WHERE id = 11 AND path = '/system/tenants';
UPDATE iam_menus SET name = 'menu.menus', path = '/admin/menus', sort = 60, updated_at = now()
  WHERE id = 12 AND path = '/system/menus';
UPDATE iam_menus SET name = 'menu.audit', icon = 'FileSearchOutlined', sort = 120, updated_at = now()
  WHERE id = 13 AND name = 'nav.logs';
UPDATE iam_menus SET name = 'menu.operations', path = '/audit/operations', updated_at = now()
  WHERE id = 14 AND path = '/logs/operations';
UPDATE iam_menus SET name = 'menu.logins', path = '/audit/logins', updated_at = now()
  WHERE id = 15 AND path = '/logs/logins';
UPDATE iam_menus SET name = 'menu.business', path = '/audit/business', updated_at = now()
  WHERE id = 16 AND path = '/logs/audit';

-- The dashboard, where a user lands after signing in: first in everyone's navigation.
INSERT INTO iam_menus (parent_id, name, kind, path, permission_code, icon, sort) VALUES
  (NULL, 'menu.dashboard', 'page', '/', NULL, 'DashboardOutlined', 5);

-- New entries: no fixed ids (administrators may have added entries since 0023); parents are
-- found by the seeded directory's id or, for the new directories, their name.
INSERT INTO iam_menus (parent_id, name, kind, path, permission_code, icon, sort)
  SELECT 7, 'menu.posts', 'page', '/admin/posts', 'system:post:list', 'IdcardOutlined', 35
  WHERE EXISTS (SELECT 1 FROM iam_menus WHERE id = 7 AND kind = 'directory');

-- Approvals administration answers platform administrators only (no permission code; the
-- console hides these pages from everyone else and shows its 403 page on a deep link).
INSERT INTO iam_menus (parent_id, name, kind, path, permission_code, icon, sort) VALUES
  (NULL, 'menu.approvals', 'directory', NULL, NULL, 'SafetyCertificateOutlined', 90);
INSERT INTO iam_menus (parent_id, name, kind, path, permission_code, icon, sort)
  SELECT d.id, v.name, 'page', v.path, NULL, v.icon, v.sort
  FROM iam_menus d,
    (VALUES
      ('menu.instances', '/approvals/instances', 'UnorderedListOutlined', 10),
      ('menu.analytics', '/approvals/analytics', 'BarChartOutlined', 20)
    ) AS v (name, path, icon, sort)
  WHERE d.name = 'menu.approvals' AND d.kind = 'directory' AND d.parent_id IS NULL;

INSERT INTO iam_menus (parent_id, name, kind, path, permission_code, icon, sort) VALUES
  (NULL, 'menu.monitor', 'page', '/monitor', 'monitor:service:list', 'MonitorOutlined', 130),
  (NULL, 'menu.system', 'directory', NULL, NULL, 'SettingOutlined', 140);
INSERT INTO iam_menus (parent_id, name, kind, path, permission_code, icon, sort)
  SELECT d.id, v.name, 'page', v.path, v.code, v.icon, v.sort
  FROM iam_menus d,
    (VALUES
      ('menu.settings', '/system/settings', 'system:setting:list', 'SettingOutlined', 10),
      ('menu.dicts', '/system/dicts', 'system:dict:list', 'BookOutlined', 20),
      ('menu.notices', '/system/notices', 'system:notice:list', 'NotificationOutlined', 30),
      ('menu.errorTexts', '/system/error-texts', 'system:error-text:list', 'WarningOutlined', 40),
      ('menu.templates', '/system/templates', 'system:template:list', 'MailOutlined', 50),
      ('menu.files', '/system/files', 'system:file:list', 'FolderOutlined', 60),
      ('menu.oauthClients', '/system/oauth-clients', NULL, 'KeyOutlined', 70),
      ('menu.codegen', '/system/codegen', 'system:codegen:preview', 'CodeOutlined', 80)
    ) AS v (name, path, code, icon, sort)
  WHERE d.name = 'menu.system' AND d.kind = 'directory' AND d.parent_id IS NULL;

