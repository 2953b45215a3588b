import { describe, expect, it } from 'vitest';
import en from './en';
import zhCN from './zh-CN';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('dictionaries', () => {
  it('have the same keys in English and Simplified Chinese, none empty', () => {
    expect(keys(zhCN).sort()).toEqual(keys(en).sort());
    for (const k of keys(zhCN)) {
      const value = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], zhCN);
      expect(value, k).not.toBe('');
    }
  });
});
