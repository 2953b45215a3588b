import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, data } from '../api/client';
import type { Page, UserItem } from '../api/bpm';
import { useAuth } from '../auth/AuthContext';

interface Props {
  value?: number[] | number;
  onChange?: (value: number[] | number) => void;
  multiple?: boolean;
  id?: string;
  disabled?: boolean;
  'aria-label'?: string;
}

/**
 * Picks users from the directory (`GET /users`, searched by name) when the caller may list
 * users; without `system:user:list` the directory is closed, so user ids are typed instead.
 */
export function UserPicker({ value, onChange, multiple = false, ...rest }: Props) {
  const { t } = useTranslation();
  const { can } = useAuth();
  const [keyword, setKeyword] = useState('');
  const directory = can('system:user:list');
  const users = useQuery({
    queryKey: ['users', 'picker', keyword],
    queryFn: () =>
      data(
        api.GET('/api/v1/users', {
          params: { query: { page_size: 20, ...(keyword ? { keyword } : {}) } },
        }),
      ) as Promise<Page<UserItem>>,
    enabled: directory,
  });
  if (!directory) {
    return (
      <Select<number[]>
        {...rest}
        mode="tags"
        placeholder={t('picker.typeIds')}
        value={(Array.isArray(value) ? value : value ? [value] : []) as number[]}
        onChange={(v) => {
          const ids = (v as unknown[]).map(Number).filter((n) => Number.isInteger(n) && n > 0);
          onChange?.(multiple ? ids : (ids[ids.length - 1] as number));
        }}
        tokenSeparators={[',', ' ']}
        open={false}
      />
    );
  }
  return (
    <Select
      {...rest}
      mode={multiple ? 'multiple' : undefined}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      placeholder={t('picker.searchUsers')}
      loading={users.isFetching}
      value={value as never}
      onChange={(v) => onChange?.(v as number[] | number)}
      options={(users.data?.list ?? []).map((u) => ({
        value: u.id,
        label: `${u.nickname || u.username} (${u.username})`,
      }))}
      notFoundContent={t('picker.noUsers')}
    />
  );
}
