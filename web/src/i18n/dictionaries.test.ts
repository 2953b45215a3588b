import { describe, expect, it } from 'vitest';
import en from './en';
import zhCN from './zh-CN';
import admin from '../routes/admin/i18n';
import approvals from '../routes/approvals/i18n';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('dictionaries', () => {
  it.each([
    ['translation', en, zhCN],
    ['admin', admin.en, admin['zh-CN']],
    ['approvals', approvals.en, approvals['zh-CN']],
  ])('%s: the same keys in English and Simplified Chinese, none empty', (_ns, en, zhCN) => {
    expect(keys(zhCN).sort()).toEqual(keys(en).sort());
    for (const k of keys(zhCN)) {
      const value = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], zhCN);
      expect(value, k).not.toBe('');
    }
  });
});
