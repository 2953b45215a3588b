import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AuditTables } from '../../../platform/audit/business-audit.js';
import { principalOf } from '../../../platform/auth/guard.js';
import { requirePermission } from '../audit.permissions.js';
import { csvPages } from '../../../platform/http/csv.js';
import {
  envelopeOf,
  ok,
  pageQuery,
  pageResult,
  parsePage,
} from '../../../platform/http/envelope.js';
import { idQuery, keywordQuery, toIso } from '../../../platform/http/params.js';
import type { HttpApp } from '../../../platform/http/server.js';
import {
  BUSINESS_AUDIT_CSV_COLUMNS,
  listBusinessAudit,
  readBusinessAuditCsvPage,
} from './business-audit.repo.js';
import { verifyChain, type VerifyOptions } from './chain-verify.js';

/** The CSV export's row cap (the spec's 50 000). */
export const EXPORT_ROW_LIMIT = 50_000;
// Rows per export page: one page's CSV is one string in memory (about 0.6 MB for typical rows).
const EXPORT_PAGE_ROWS = 2000;

const time = z.iso.datetime({ offset: true }).optional();
const filterQuery = {
  keyword: keywordQuery,
  action: z.string().max(64).optional(),
  target_type: z.string().max(64).optional(),
  target_id: z.string().max(128).optional(),
  actor_id: idQuery,
  start_time: time,
  end_time: time,
};

const entryView = z.object({
  id: z.number().int(),
  tenant_id: z.number().int(),
  actor_id: z.number().int(),
  actor_name: z.string(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  summary: z.string(),
  created_at: z.string(),
});
const facet = z.array(z.object({ value: z.string(), count: z.number().int() }));

const tags = ['audit'];

/** The chain's keys and the checkpoint file (settings `audit.chain`), for verify. */
export type ChainKeys = Pick<VerifyOptions, 'linkKey' | 'checkpointKey' | 'checkpointFile'>;

export function registerBusinessAuditRoutes(
  app: HttpApp,
  db: Kysely<AuditTables>,
  keys: ChainKeys,
): void {
  app.get(
    '/api/v1/logs/audit',
    {
      preHandler: requirePermission('system:log:audit'),
      schema: {
        tags,
        summary: 'Business audit log of the tenant, with facets',
        querystring: z.object({ ...pageQuery, ...filterQuery }),
        response: {
          200: envelopeOf(
            z.object({
              list: z.array(entryView),
              total: z.number().int(),
              page: z.number().int(),
              page_size: z.number().int(),
              facets: z.object({ action: facet, target_type: facet }),
            }),
          ),
        },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const page = parsePage(request.query);
      const { rows, total, facets } = await listBusinessAudit(
        db,
        principal.tenantId,
        request.query,
        page,
      );
      const list = rows.map((r) => ({ ...r, created_at: toIso(r.created_at) }));
      return ok({ ...pageResult(list, total, page), facets });
    },
  );

  app.get(
    '/api/v1/logs/audit/export',
    {
      preHandler: requirePermission('system:log:audit'),
      schema: {
        tags,
        summary: 'CSV export (UTF-8 with BOM, streamed, at most 50 000 rows)',
        querystring: z.object(filterQuery),
      },
    },
    async (request, reply) => {
      const tenantId = principalOf(request).tenantId;
      const csv = csvPages<number>({
        header: BUSINESS_AUDIT_CSV_COLUMNS,
        readPage: (afterId, limit) =>
          readBusinessAuditCsvPage(db, tenantId, request.query, afterId, limit),
        maxRows: EXPORT_ROW_LIMIT,
        pageRows: EXPORT_PAGE_ROWS,
      });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="business-audit.csv"')
        .send(csv);
    },
  );

  app.get(
    '/api/v1/logs/audit/verify',
    {
      preHandler: requirePermission('system:log:audit'),
      schema: {
        tags,
        summary: 'Walk the tenant\u2019s hash chain and report the first broken link',
        response: {
          200: envelopeOf(
            z.object({
              ok: z.boolean(),
              checked: z.number().int(),
              first_broken: z
                .object({
                  seq: z.number().int(),
                  id: z.number().int().nullable(),
                  reason: z.string(),
                })
                .nullable(),
            }),
          ),
        },
      },
    },
    async (request) => ok(await verifyChain({ db, ...keys }, principalOf(request).tenantId)),
  );
}
