import {
  ApartmentOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BankOutlined,
  BarChartOutlined,
  BellOutlined,
  BookOutlined,
  CheckSquareOutlined,
  CodeOutlined,
  CopyOutlined,
  DashboardOutlined,
  FileDoneOutlined,
  FileSearchOutlined,
  FolderOutlined,
  GiftOutlined,
  IdcardOutlined,
  KeyOutlined,
  LoginOutlined,
  MailOutlined,
  MenuOutlined,
  MonitorOutlined,
  NotificationOutlined,
  PartitionOutlined,
  PlusCircleOutlined,
  ProfileOutlined,
  SafetyCertificateOutlined,
  SafetyOutlined,
  SettingOutlined,
  TeamOutlined,
  UnorderedListOutlined,
  UserOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { Badge, Menu, type MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { MenuNode } from '../api/menus';
import { mayUse } from '../auth/access';
import { hasPage } from './routeTable';
import type { Me } from '../auth/AuthContext';

/** Icons a menu entry may name (`icon`); an unknown name shows none. */
const ICONS: Record<string, ReactNode> = {
  ApartmentOutlined: <ApartmentOutlined />,
  AppstoreOutlined: <AppstoreOutlined />,
  AuditOutlined: <AuditOutlined />,
  BankOutlined: <BankOutlined />,
  BarChartOutlined: <BarChartOutlined />,
  BellOutlined: <BellOutlined />,
  BookOutlined: <BookOutlined />,
  CheckSquareOutlined: <CheckSquareOutlined />,
  CodeOutlined: <CodeOutlined />,
  CopyOutlined: <CopyOutlined />,
  DashboardOutlined: <DashboardOutlined />,
  FileDoneOutlined: <FileDoneOutlined />,
  FileSearchOutlined: <FileSearchOutlined />,
  FolderOutlined: <FolderOutlined />,
  GiftOutlined: <GiftOutlined />,
  IdcardOutlined: <IdcardOutlined />,
  KeyOutlined: <KeyOutlined />,
  LoginOutlined: <LoginOutlined />,
  MailOutlined: <MailOutlined />,
  MenuOutlined: <MenuOutlined />,
  MonitorOutlined: <MonitorOutlined />,
  NotificationOutlined: <NotificationOutlined />,
  PartitionOutlined: <PartitionOutlined />,
  PlusCircleOutlined: <PlusCircleOutlined />,
  ProfileOutlined: <ProfileOutlined />,
  SafetyCertificateOutlined: <SafetyCertificateOutlined />,
  SafetyOutlined: <SafetyOutlined />,
  SettingOutlined: <SettingOutlined />,
  TeamOutlined: <TeamOutlined />,
  UnorderedListOutlined: <UnorderedListOutlined />,
  UserOutlined: <UserOutlined />,
  WarningOutlined: <WarningOutlined />,
};

/** The navigation the console offers before (or without) the server's menu tree. */
const BUILT_IN: Pick<MenuNode, 'name' | 'path' | 'icon'>[] = [
  { name: 'menu.dashboard', path: '/', icon: 'DashboardOutlined' },
  { name: 'nav.todo', path: '/todo', icon: 'CheckSquareOutlined' },
  { name: 'nav.done', path: '/done', icon: 'FileDoneOutlined' },
  { name: 'nav.my', path: '/my', icon: 'AuditOutlined' },
  { name: 'nav.cc', path: '/cc', icon: 'MailOutlined' },
  { name: 'nav.start', path: '/start', icon: 'PlusCircleOutlined' },
  { name: 'nav.designer', path: '/designer', icon: 'PartitionOutlined' },
];

type Item = NonNullable<MenuProps['items']>[number];

/** Counts shown beside entries (`/todo`: open tasks, `/cc`: unread copies). */
export type NavBadges = Partial<Record<string, number>>;

/**
 * The side navigation: the server's menu tree for the caller (directories as groups that fold,
 * pages as links, buttons left out), icons by name, labels by i18n key falling back to the
 * entry's name. Entries the console would refuse (a platform page for a tenant administrator)
 * are hidden too. Without a tree yet, the built-in entries the caller may use.
 */
export function NavMenu({
  tree,
  me,
  badges,
  onNavigate,
}: {
  tree: MenuNode[] | undefined;
  me: Me;
  badges: NavBadges;
  onNavigate?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const label = (name: string) => (i18n.exists(name) ? t(name) : name);

  const toItem = (
    node: Pick<MenuNode, 'name' | 'path' | 'icon'> & Partial<MenuNode>,
  ): Item | null => {
    const icon = node.icon ? ICONS[node.icon] : undefined;
    if (node.kind === 'directory') {
      const children = (node.children ?? []).map(toItem).filter((i): i is Item => i !== null);
      if (children.length === 0) return null;
      return { key: `dir-${node.id}`, icon, label: label(node.name), children };
    }
    if (node.kind === 'button' || !node.path) return null;
    if (!hasPage(node.path) || !mayUse(me, node.path)) return null;
    const count = badges[node.path] ?? 0;
    return {
      key: node.path,
      icon,
      label: count ? (
        <Badge count={count} offset={[12, 0]} size="small">
          {label(node.name)}
        </Badge>
      ) : (
        label(node.name)
      ),
    };
  };

  const items = (tree ?? BUILT_IN).map(toItem).filter((i): i is Item => i !== null);
  const keys = collectKeys(items);
  // The entry of the current page: the longest entry path the location is under.
  const selected = keys
    .filter((k) => k === location.pathname || (k !== '/' && location.pathname.startsWith(`${k}/`)))
    .sort((a, b) => b.length - a.length)[0];
  const open = items
    .filter((i) => i && 'children' in i && collectKeys(i.children ?? []).includes(selected ?? ''))
    .map((i) => String(i!.key));

  return (
    <Menu
      mode="inline"
      selectedKeys={selected ? [selected] : []}
      defaultOpenKeys={open}
      items={items}
      onClick={({ key }) => {
        void navigate(key);
        onNavigate?.();
      }}
    />
  );
}

function collectKeys(items: readonly Item[]): string[] {
  return items.flatMap((i) => {
    if (!i) return [];
    if ('children' in i && i.children) return collectKeys(i.children);
    return [String(i.key)];
  });
}
