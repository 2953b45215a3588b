/**
 * The share of the quota in use, 0–100 with one decimal: a few bytes show as more than 0 (a
 * bar at 0 % would say nothing is stored), and only a full quota shows 100.
 */
export function usagePercent(used: number, quota: number): number {
  if (quota <= 0 || used <= 0) return 0;
  if (used >= quota) return 100;
  const percent = Math.floor((used / quota) * 1000) / 10;
  return Math.min(99.9, Math.max(0.1, percent));
}
