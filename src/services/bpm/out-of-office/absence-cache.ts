import type { LookasideCache } from '../../../platform/cache/fail-open.js';
import type { BpmDb } from '../bpm.tables.js';
import type { Absence, AbsenceBook } from '../engine/index.js';
import { periodsNotOver } from './out-of-office.repo.js';

/**
 * Bounds staleness when an invalidation is missed (the cache down while a period changed, or
 * separate processes without Redis).
 */
export const ABSENCE_CACHE_TTL_MS = 30_000;

/** One period as cached: times in ms since the epoch, `keys` null for every definition. */
interface CachedPeriod {
  userId: number;
  standInId: number;
  from: number;
  to: number;
  keys: string[] | null;
}

/** A tenant's periods not over at `at` (ms), when they were read. */
interface Entry {
  at: number;
  periods: CachedPeriod[];
}

const keyOf = (tenantId: number) => `bpm:absences:${tenantId}`;

/**
 * Out-of-office periods through the platform cache: one entry per tenant holding every period
 * not over when it was read (a handful: one per person away), so a command asks the cache once
 * instead of the database once per assignee. The out-of-office service invalidates the entry
 * after every committed change of a period; the engine sees it at the next command.
 */
export class AbsenceCache {
  constructor(private readonly cache: LookasideCache) {}

  /**
   * The engine's AbsenceBook for one command at `now`: the tenant's periods are read once (from
   * the cache, else in one statement on `db`, the command's transaction, and cached).
   */
  book(db: BpmDb, tenantId: number, definitionKey: string, now: number): AbsenceBook {
    let periods: Promise<CachedPeriod[]> | undefined;
    return {
      absenceOf: async (userId) => {
        periods ??= this.periods(db, tenantId, now);
        const held = (await periods).find(
          (p) =>
            p.userId === userId &&
            p.from <= now &&
            now < p.to &&
            (p.keys === null || p.keys.includes(definitionKey)),
        );
        return held ? absenceOf(held) : null;
      },
    };
  }

  /** Drops the tenant's entry: call after a period's change has committed. */
  async invalidate(tenantId: number): Promise<void> {
    await this.cache.del(keyOf(tenantId));
  }

  private async periods(db: BpmDb, tenantId: number, now: number): Promise<CachedPeriod[]> {
    const text = await this.cache.get(keyOf(tenantId));
    const cached = text ? (JSON.parse(text) as Entry) : undefined;
    // An entry read later than `now` (another replica's clock ahead) may lack a period that
    // ended in between: read the table instead.
    if (cached && cached.at <= now) return cached.periods;
    const rows = await periodsNotOver(db, tenantId, new Date(now));
    const periods = rows.map((r) => ({
      userId: r.user_id,
      standInId: r.stand_in_id,
      from: r.starts_at.getTime(),
      to: r.ends_at.getTime(),
      keys: r.definition_keys,
    }));
    if (!cached) {
      const entry: Entry = { at: now, periods };
      await this.cache.set(keyOf(tenantId), JSON.stringify(entry), ABSENCE_CACHE_TTL_MS);
    }
    return periods;
  }
}

const absenceOf = (p: CachedPeriod): Absence => ({
  userId: p.userId,
  standInId: p.standInId,
  until: p.to,
});
