/** The monitor page's tabs, in order, and the code each needs. */
export const MONITOR_TABS = ['health', 'trends', 'rules', 'alerts', 'certificates'] as const;
export type MonitorTab = (typeof MONITOR_TABS)[number];

const CODES: Record<MonitorTab, readonly string[]> = {
  health: ['monitor:service:list', 'monitor:job:list'],
  trends: ['monitor:metric:list'],
  rules: ['monitor:alert:list'],
  alerts: ['monitor:alert:list'],
  certificates: ['system:cert:list'],
};

/** The tabs a caller holding these codes may open (any one of a tab's codes opens it). */
export function monitorTabs(can: (code: string) => boolean): MonitorTab[] {
  return MONITOR_TABS.filter((tab) => CODES[tab].some((code) => can(code)));
}

/** The page's address with a tab open (and its own query, such as a filter). */
export function tabLink(tab: MonitorTab, query: Record<string, string | number> = {}): string {
  const params = new URLSearchParams({ tab });
  for (const [key, value] of Object.entries(query)) params.set(key, String(value));
  return `/monitor?${params.toString()}`;
}
