import { Alert, Checkbox, Collapse, Empty, Input, Space, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermissions } from '../../../api/identity';
import { grants, useAuth } from '../../../auth/AuthContext';
import { ErrorState, LoadingState } from '../../../components/states';
import { codeState, groupPermissions, toggle, wildcardsOf } from './permissionGroups';

interface Props {
  value?: string[];
  onChange?: (value: string[]) => void;
}

/**
 * The role's permission codes, picked from the server's catalogue (`GET /permissions`) grouped
 * by module and searchable. Platform-only codes are marked (in a tenant's role they open
 * nothing); a code the editor does not hold is shown but cannot be ticked or unticked.
 */
export function PermissionEditor({ value = [], onChange }: Props) {
  const { t } = useTranslation('admin');
  const { me } = useAuth();
  const catalogue = usePermissions();
  const [search, setSearch] = useState('');
  // Groups opened by hand; while searching, every group with a match is open.
  const [open, setOpen] = useState<string[]>([]);
  const held = me?.permissions ?? [];
  const groups = useMemo(
    () => groupPermissions(catalogue.data ?? [], search),
    [catalogue.data, search],
  );
  if (catalogue.isPending) return <LoadingState />;
  if (catalogue.isError)
    return <ErrorState error={catalogue.error} onRetry={() => void catalogue.refetch()} />;
  const set = (code: string, on: boolean) => onChange?.(toggle(value, code, on));
  const wildcards = wildcardsOf(value);

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {wildcards.length > 0 && (
        <Alert
          type="info"
          showIcon
          title={t('roles.wildcards')}
          description={
            <Space wrap>
              {wildcards.map((w) => (
                <Tag
                  key={w}
                  closable={grants(held, w)}
                  onClose={() => set(w, false)}
                  closeIcon={<span aria-label={t('roles.removeWildcard', { code: w })}>×</span>}
                >
                  {w === '*' ? t('roles.everything') : w}
                </Tag>
              ))}
            </Space>
          }
        />
      )}
      <Input.Search
        aria-label={t('roles.searchPermissions')}
        placeholder={t('roles.searchPermissions')}
        allowClear
        onChange={(e) => setSearch(e.target.value)}
      />
      <Typography.Text type="secondary">
        {t('roles.chosen', { count: value.length })}
      </Typography.Text>
      {groups.length === 0 ? (
        <Empty description={t('roles.noPermissions')} />
      ) : (
        <Collapse
          size="small"
          activeKey={search.trim() ? groups.map((g) => g.module) : open}
          onChange={(keys) => setOpen(keys)}
          items={groups.map((group) => {
            const states = group.entries.map((e) => codeState(value, e.code, held));
            const ticked = states.filter((s) => s.checked).length;
            return {
              key: group.module,
              label: (
                <span data-testid={`perm-group-${group.module}`}>
                  {group.module}{' '}
                  <Typography.Text type="secondary">
                    {ticked}/{group.entries.length}
                  </Typography.Text>
                </span>
              ),
              children: (
                <Space orientation="vertical">
                  {group.entries.map((entry, i) => {
                    const state = states[i]!;
                    const box = (
                      <Checkbox
                        checked={state.checked}
                        disabled={!state.editable}
                        onChange={(e) => set(entry.code, e.target.checked)}
                        data-testid={`perm-${entry.code}`}
                      >
                        <code>{entry.code}</code> {entry.description}
                        {entry.platform_only && (
                          <Tag color="purple" style={{ marginInlineStart: 8 }}>
                            {t('roles.platformOnly')}
                          </Tag>
                        )}
                      </Checkbox>
                    );
                    const why = state.via
                      ? t('roles.grantedBy', { code: state.via })
                      : !state.editable
                        ? t('roles.notHeld')
                        : null;
                    const line = (
                      <span key={entry.code} data-testid={`perm-row-${entry.code}`}>
                        {box}
                      </span>
                    );
                    return why ? (
                      <Tooltip key={entry.code} title={why}>
                        {line}
                      </Tooltip>
                    ) : (
                      line
                    );
                  })}
                </Space>
              ),
            };
          })}
        />
      )}
    </Space>
  );
}
