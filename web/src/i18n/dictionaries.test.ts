import { describe, expect, it } from 'vitest';
import en from './en';
import shellEn from './shell.en';
import shellZhCN from './shell.zh-CN';
import zhCN from './zh-CN';
import admin from '../routes/admin/i18n';
import audit from '../routes/audit/i18n';
import approvals from '../routes/approvals/i18n';
import monitor from '../routes/monitor/i18n';
import systemTools from '../routes/system/tools-i18n';
import system from '../routes/system/i18n';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('dictionaries', () => {
  it.each([
    ['translation', en, zhCN],
    ['admin', admin.en, admin['zh-CN']],
    ['audit', audit.en, audit['zh-CN']],
    ['approvals', approvals.en, approvals['zh-CN']],
    ['monitor', monitor.en, monitor['zh-CN']],
    ['systemTools', systemTools.en, systemTools['zh-CN']],
    ['system', system.en, system['zh-CN']],
  ])('%s: the same keys in English and Simplified Chinese, none empty', (_ns, en, zhCN) => {
    expect(keys(zhCN).sort()).toEqual(keys(en).sort());
    expect(keys(shellZhCN).sort()).toEqual(keys(shellEn).sort());
    // The frame's sections never shadow a page section of the same name.
    for (const section of Object.keys(shellEn)) expect(Object.keys(en)).not.toContain(section);
    for (const k of keys(zhCN)) {
      const value = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], zhCN);
      expect(value, k).not.toBe('');
    }
  });
});
