import type { Readable } from 'node:stream';
import type { Principal } from '../../../platform/auth/principal.js';
import { csvPages } from '../../../platform/http/csv.js';
import { parsePage, pageResult } from '../../../platform/http/envelope.js';
import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import { toIso } from '../../../platform/http/params.js';
import {
  countOperationLogsByModule,
  countOperationLogsByStatus,
  deleteOperationLogsBefore,
  findOperationLog,
  listOperationLogs,
  operationLogTotals,
  readOperationLogCsvPage,
  topOperationLogPaths,
  type ExportCursor,
  type LogScope,
  type OperationLogDb,
  type OperationLogRow,
} from './operation-logs.repo.js';
import {
  EXPORT_COLUMNS,
  type ListOperationLogsQuery,
  type OperationLogFilter,
  type OperationLogItem,
  type OperationLogStats,
  type OperationLogView,
  type StatsQuery,
} from './operation-logs.schema.js';

/** The spec's cap on one CSV export. */
export const EXPORT_MAX_ROWS = 50_000;
// Rows per export page: one page's CSV is one string (about 0.5 MB for rows of typical bodies;
// a row carries at most two 16 KB bodies).
const EXPORT_PAGE_ROWS = 2000;
const TOP_PATHS = 10;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface OperationLogsServiceOptions {
  db: OperationLogDb;
  /** Default `() => new Date()`. */
  now?: () => Date;
  /** Rows one export returns at most. Default 50 000 (EXPORT_MAX_ROWS). */
  exportMaxRows?: number;
  /** Rows one export reads per query. Default 2 000. */
  exportPageRows?: number;
}

/** The caller's tenant and, for a platform admin, the anonymous entries. */
const scopeOf = (principal: Principal): LogScope => ({
  tenantId: principal.tenantId,
  anonymous: principal.platformAdmin,
});

const itemOf = (row: OperationLogRow): OperationLogItem => ({
  ...row,
  created_at: toIso(row.created_at),
});

export class OperationLogsService {
  private readonly db: OperationLogDb;
  private readonly now: () => Date;
  private readonly exportMaxRows: number;
  private readonly exportPageRows: number;

  constructor(options: OperationLogsServiceOptions) {
    this.db = options.db;
    this.now = options.now ?? (() => new Date());
    this.exportMaxRows = options.exportMaxRows ?? EXPORT_MAX_ROWS;
    this.exportPageRows = options.exportPageRows ?? EXPORT_PAGE_ROWS;
  }

  async list(principal: Principal, query: ListOperationLogsQuery) {
    const page = parsePage(query);
    const { page: _p, page_size: _s, ...filter } = query;
    const { rows, total } = await listOperationLogs(this.db, scopeOf(principal), filter, page);
    return pageResult(rows.map(itemOf), total, page);
  }

  async get(principal: Principal, id: number): Promise<OperationLogView> {
    const row = await findOperationLog(this.db, scopeOf(principal), id);
    if (!row) throw new AppError(ERROR_CODES.NOT_FOUND, 'operation log not found');
    return { ...itemOf(row), request_body: row.request_body, response_body: row.response_body };
  }

  async stats(principal: Principal, range: StatsQuery): Promise<OperationLogStats> {
    const scope = scopeOf(principal);
    const [totals, byModule, byStatus, topPaths] = await Promise.all([
      operationLogTotals(this.db, scope, range),
      countOperationLogsByModule(this.db, scope, range),
      countOperationLogsByStatus(this.db, scope, range),
      topOperationLogPaths(this.db, scope, range, TOP_PATHS),
    ]);
    const round = (n: number) => Math.round(n * 100) / 100;
    return {
      total: totals.total,
      errors: totals.errors,
      avg_latency_ms: round(totals.avg),
      p95_latency_ms: round(totals.p95),
      by_module: byModule,
      by_status: byStatus,
      top_paths: topPaths.map((p) => ({ ...p, avg_latency_ms: round(p.avg_latency_ms) })),
    };
  }

  /**
   * The filtered logs as CSV (UTF-8 with BOM, header row of field names), newest first, at most
   * `exportMaxRows` rows, read in keyset pages so memory stays flat whatever the size. Text
   * cells a spreadsheet would run as a formula get a leading `'`.
   */
  exportCsv(principal: Principal, filter: OperationLogFilter): Readable {
    const scope = scopeOf(principal);
    return csvPages<ExportCursor>({
      header: EXPORT_COLUMNS,
      readPage: (after, limit) => readOperationLogCsvPage(this.db, scope, filter, after, limit),
      maxRows: this.exportMaxRows,
      pageRows: this.exportPageRows,
    });
  }

  /**
   * Deletes the logs the caller reads (their tenant's; a platform admin's also the anonymous
   * ones) older than `days` days (0: all until now).
   */
  async clear(principal: Principal, days: string | undefined): Promise<{ deleted: number }> {
    if (days === undefined || !/^\d{1,5}$/.test(days)) {
      throw new AppError(ERROR_CODES.BAD_REQUEST, 'days must be an integer ≥ 0', {
        fields: [{ field: 'days', rule: 'format', message: 'must be an integer ≥ 0' }],
      });
    }
    const before = new Date(this.now().getTime() - Number(days) * DAY_MS);
    return { deleted: await deleteOperationLogsBefore(this.db, scopeOf(principal), before) };
  }
}
