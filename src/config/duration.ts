const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * Parses `500ms`, `30s`, `5m`, `1h`, `7d` or a plain number of seconds into milliseconds.
 * Returns undefined for anything else so the caller can name the bad setting.
 */
export function parseDurationMs(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) return undefined;
  const value = Number(match[1]);
  const unit = (match[2] ?? 's') as keyof typeof UNIT_MS;
  const ms = value * UNIT_MS[unit];
  return Number.isFinite(ms) ? Math.round(ms) : undefined;
}
