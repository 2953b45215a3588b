import { describe, expect, it } from 'vitest';
import { alertQuery } from '../alerts/alertQuery';
import { monitorTabs, tabLink } from './tabs';

describe('the monitor tabs', () => {
  it('offers only the tabs whose codes the caller holds', () => {
    const holding = (codes: string[]) => (code: string) => codes.includes(code);
    expect(monitorTabs(() => true)).toEqual([
      'health',
      'trends',
      'rules',
      'alerts',
      'certificates',
    ]);
    expect(monitorTabs(holding(['monitor:job:list', 'monitor:alert:list']))).toEqual([
      'health',
      'rules',
      'alerts',
    ]);
    expect(monitorTabs(holding(['monitor:service:list']))).toEqual(['health']);
  });

  it('links a tab with its query', () => {
    expect(tabLink('alerts', { rule_id: 5 })).toBe('/monitor?tab=alerts&rule_id=5');
    expect(tabLink('certificates')).toBe('/monitor?tab=certificates');
  });

  it('reads the alert filters of the URL, leaving out what the API does not take', () => {
    expect(alertQuery({ status: 'firing', kind: 'certificate_expiry', rule_id: '12' })).toEqual({
      status: 'firing',
      kind: 'certificate_expiry',
      rule_id: 12,
    });
    expect(alertQuery({ status: 'open', kind: 'x', rule_id: 'abc' })).toEqual({});
  });
});
