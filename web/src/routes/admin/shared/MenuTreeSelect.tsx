import { TreeSelect } from 'antd';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useMenuTree, type MenuNode } from '../../../api/identity';

interface Props {
  value?: number | number[] | null;
  onChange?: (value: never) => void;
  /** Many entries with checkboxes (a package's menus); otherwise one (a parent). */
  multiple?: boolean;
  /** An entry (and everything under it) that may not be picked: the one being moved. */
  excludeId?: number;
  'aria-label'?: string;
  allowClear?: boolean;
}

interface Option {
  value: number;
  title: string;
  disabled?: boolean;
  children: Option[];
}

/** The menu name as the console shows it: an i18n key (`nav.todo`) in the reader's language. */
export function useMenuLabel() {
  const { t } = useTranslation();
  return useCallback(
    (name: string) =>
      /^[a-z]+(\.[A-Za-z0-9_]+)+$/.test(name) ? t(name, { defaultValue: name }) : name,
    [t],
  );
}

/** Picks entries of the platform's menu tree (`GET /menus`). */
export function MenuTreeSelect({ value, onChange, multiple, excludeId, ...rest }: Props) {
  const menus = useMenuTree();
  const label = useMenuLabel();
  const options = useMemo(() => {
    const toOption = (m: MenuNode, off: boolean): Option => {
      const disabled = off || m.id === excludeId;
      return {
        value: m.id,
        title: label(m.name),
        disabled: disabled || undefined,
        children: (m.children ?? []).map((c) => toOption(c, disabled)),
      };
    };
    return (menus.data ?? []).map((m) => toOption(m, false));
  }, [menus.data, excludeId, label]);
  return (
    <TreeSelect
      {...rest}
      value={value as never}
      onChange={(v) => onChange?.(v as never)}
      treeData={options as never}
      treeCheckable={multiple}
      multiple={multiple}
      showCheckedStrategy={TreeSelect.SHOW_ALL}
      treeDefaultExpandAll
      loading={menus.isPending}
      showSearch={{ treeNodeFilterProp: 'title' }}
      maxTagCount="responsive"
      style={{ width: '100%' }}
    />
  );
}
