import type { Principal } from '../../../platform/auth/principal.js';
import type { BpmDb } from '../bpm.tables.js';
import {
  countInstancesByStatus,
  dailyStartsAndFinishes,
  decisionsSince,
  outcomesByDefinition,
  slowestNodes,
} from './stats.repo.js';
import { INSTANCE_STATUSES, MAX_BOTTLENECKS, TREND_DAYS, type StatsView } from './stats.schema.js';

export interface StatsServiceOptions {
  db: BpmDb;
  /** Injected clock (default Date.now): "today" of the trend is its UTC date. */
  now?: () => number;
}

/** BPM analytics of the caller's tenant (BPM.md, "Analytics"). */
export class StatsService {
  private readonly now: () => number;

  constructor(private readonly o: StatsServiceOptions) {
    this.now = o.now ?? Date.now;
  }

  async stats(principal: Principal): Promise<StatsView> {
    const tenantId = principal.tenantId;
    const today = new Date(this.now()).toISOString().slice(0, 10);
    // One snapshot, so the sections agree with each other (finished counts, statuses).
    const since = new Date(this.now() - 24 * 3_600_000);
    const { byStatus, trend, decisions, definitions, bottlenecks } = await this.o.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => ({
        byStatus: await countInstancesByStatus(trx, tenantId),
        trend: await dailyStartsAndFinishes(trx, tenantId, today, TREND_DAYS),
        decisions: await decisionsSince(trx, tenantId, since),
        definitions: await outcomesByDefinition(trx, tenantId),
        bottlenecks: await slowestNodes(trx, tenantId, MAX_BOTTLENECKS),
      }));
    const distribution = Object.fromEntries(INSTANCE_STATUSES.map((s) => [s, 0])) as Record<
      (typeof INSTANCE_STATUSES)[number],
      number
    >;
    for (const row of byStatus) distribution[row.status] = row.n;
    return {
      status_distribution: distribution,
      trend_30d: trend,
      last_24h: decisions,
      definitions: definitions.map((d) => ({
        definition_key: d.definition_key,
        finished: d.finished,
        approved: d.approved,
        approval_rate: d.finished === 0 ? null : d.approved / d.finished,
        avg_duration_ms: d.avg_duration_ms,
      })),
      bottlenecks,
    };
  }
}
