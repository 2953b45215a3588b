import { useQuery } from '@tanstack/react-query';
import { Select, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { directoryKeys, searchPeople, usePeople, type Person } from '../api/people';
import { personLabel } from './personLabel';

type Value = number | number[] | null | undefined;

export interface PersonPickerProps {
  value?: Value;
  /** One id (or undefined once cleared); an array of ids with `multiple`. */
  onChange?: (value: never) => void;
  multiple?: boolean;
  id?: string;
  disabled?: boolean;
  'aria-label'?: string;
  placeholder?: string;
  /** People not offered (the caller as their own stand-in, say); shown if already chosen. */
  exclude?: readonly number[];
  allowClear?: boolean;
  status?: 'error' | 'warning';
  style?: React.CSSProperties;
  'data-testid'?: string;
}

/** The value after `ms` without a change: one search per pause in typing, not per key. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * Picks people of the tenant by name from the people directory, which every signed-in user may
 * search (`GET /bpm/directory/users`): form fields of type `user`, stand-ins, transfers and
 * added approvers. Chosen ids show as names (looked up by id), inactive people marked as such.
 */
export function PersonPicker({
  value,
  onChange,
  multiple = false,
  exclude = [],
  placeholder,
  allowClear,
  ...rest
}: PersonPickerProps) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [open, setOpen] = useState(false);
  const keyword = useSettled(typed.trim(), 250);
  const chosen = Array.isArray(value) ? value : typeof value === 'number' ? [value] : [];
  const known = usePeople(chosen);
  const search = useQuery({
    queryKey: directoryKeys.search(keyword),
    queryFn: () => searchPeople(keyword),
    enabled: open,
    staleTime: 30_000,
  });
  // Only answers to what is typed now: none while a pause in typing is awaited.
  const current = keyword === typed.trim();
  const options = (current ? (search.data ?? []) : [])
    .filter((p) => !exclude.includes(p.id) || chosen.includes(p.id))
    .map((p: Person) => ({ value: p.id, label: p.name, title: p.name, dept: p.dept_name }));
  const searching = search.isFetching || !current;
  return (
    <Select<number | number[]>
      {...rest}
      mode={multiple ? 'multiple' : undefined}
      allowClear={allowClear}
      value={(multiple ? chosen : (chosen[0] ?? null)) as never}
      placeholder={placeholder ?? t('picker.searchPeople')}
      showSearch={{ filterOption: false, onSearch: setTyped, searchValue: typed }}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setTyped('');
      }}
      onChange={(v) => {
        setTyped('');
        onChange?.((v ?? undefined) as never);
      }}
      options={options}
      labelRender={({ value: id }) => personLabel(t, known, Number(id))}
      optionRender={(option) => (
        <span>
          {option.data.label}
          {option.data.dept && (
            <Typography.Text type="secondary" style={{ marginInlineStart: 8, fontSize: 12 }}>
              {option.data.dept}
            </Typography.Text>
          )}
        </span>
      )}
      notFoundContent={
        searching ? (
          <Spin size="small" />
        ) : search.isError ? (
          <Typography.Text type="danger">{t('picker.searchFailed')}</Typography.Text>
        ) : (
          t('picker.noUsers')
        )
      }
    />
  );
}
