import type { Principal } from '../../../platform/auth/principal.js';
import { pageResult, parsePage } from '../../../platform/http/envelope.js';
import { AppError } from '../../../platform/errors.js';
import { toIso, toIsoOrNull } from '../../../platform/http/params.js';
import type { BpmDb } from '../bpm.tables.js';
import type { SortOrder } from '../../../platform/http/sort.js';
import { listCc, markCcRead } from './cc.repo.js';
import type { CC_SORT } from './cc.schema.js';

function ccView(row: {
  id: number;
  instance_id: number;
  node_id: string;
  read: boolean;
  read_at: Date | null;
  created_at: Date;
  instance_title: string;
}) {
  return { ...row, read_at: toIsoOrNull(row.read_at), created_at: toIso(row.created_at) };
}

/** The CC recipient's side: their copies, and marking one read. */
export class CcService {
  constructor(private readonly o: { db: BpmDb }) {}

  async list(
    principal: Principal,
    query: {
      unread?: 'true' | 'false' | undefined;
      sort?: (typeof CC_SORT)[number] | undefined;
      order?: SortOrder | undefined;
      page?: string;
      page_size?: string;
    },
  ) {
    const page = parsePage(query);
    const { rows, total } = await listCc(
      this.o.db,
      principal.tenantId,
      principal.userId,
      query.unread === 'true',
      page,
      { sort: query.sort, order: query.order },
    );
    return pageResult(rows.map(ccView), total, page);
  }

  async read(principal: Principal, id: number) {
    const row = await markCcRead(this.o.db, principal.tenantId, principal.userId, id);
    if (!row) throw AppError.notFound('cc record');
    return ccView(row);
  }
}
