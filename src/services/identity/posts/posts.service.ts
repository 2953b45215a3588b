import { sql, type Selectable } from 'kysely';
import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import type { Principal } from '../../../platform/auth/principal.js';
import { containsPattern } from '../../../platform/db/like-pattern.js';
import {
  conflictOnDuplicate,
  conflictOnReference,
} from '../../../platform/db/constraint-errors.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { AppError } from '../../../platform/errors.js';
import { pageResult, parsePage } from '../../../platform/http/envelope.js';
import { auditChange } from '../audit.js';
import type { IdentityDb, IdentityTables } from '../identity.tables.js';
import { toIso } from '../identity.schema.js';
import type { CreatePostInput, ListPostsQuery, PostView, UpdatePostInput } from './posts.schema.js';

type PostRow = Selectable<IdentityTables['iam_posts']> & { holders: number };

const toView = (row: PostRow): PostView => ({
  ...row,
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
});

const DUPLICATE = 'a post with this code exists in the tenant';

function posts(db: IdentityDb, tenantId: number) {
  return db
    .selectFrom('iam_posts')
    .selectAll('iam_posts')
    .select(
      sql<number>`(SELECT count(*)::int FROM iam_user_posts up WHERE up.post_id = iam_posts.id)`.as(
        'holders',
      ),
    )
    .where('iam_posts.tenant_id', '=', tenantId);
}

/** Posts (job positions) of the caller's tenant; every change in the business audit. */
export class PostsService {
  constructor(private readonly o: { db: IdentityDb; audit: BusinessAuditWriter }) {}

  async list(principal: Principal, query: ListPostsQuery) {
    const page = parsePage(query);
    let q = posts(this.o.db, principal.tenantId);
    if (query.status) q = q.where('iam_posts.status', '=', query.status);
    if (query.keyword) {
      const pattern = containsPattern(query.keyword);
      q = q.where((eb) => eb.or([eb('code', 'ilike', pattern), eb('name', 'ilike', pattern)]));
    }
    const [rows, count] = await Promise.all([
      q.orderBy('sort').orderBy('id').limit(page.pageSize).offset(page.offset).execute(),
      q
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return pageResult(rows.map(toView), Number(count.n), page);
  }

  async get(principal: Principal, postId: number): Promise<PostView> {
    const row = await posts(this.o.db, principal.tenantId)
      .where('id', '=', postId)
      .executeTakeFirst();
    if (!row) throw AppError.notFound('post');
    return toView(row);
  }

  async create(principal: Principal, input: CreatePostInput): Promise<PostView> {
    return inTransaction(this.o.db, async (trx) => {
      const { id } = await conflictOnDuplicate(
        trx
          .insertInto('iam_posts')
          .values({
            tenant_id: principal.tenantId,
            code: input.code,
            name: input.name,
            sort: input.sort ?? 0,
            status: input.status ?? 'active',
          })
          .returning('id')
          .executeTakeFirstOrThrow(),
        'iam_posts_code',
        DUPLICATE,
      );
      const after = toView(
        (await posts(trx, principal.tenantId).where('id', '=', id).executeTakeFirst())!,
      );
      await auditChange(this.o.audit, trx, principal, {
        action: 'create',
        targetType: 'post',
        targetId: id,
        before: null,
        after,
        summary: `created post ${after.code}`,
      });
      return after;
    });
  }

  async update(principal: Principal, postId: number, input: UpdatePostInput): Promise<PostView> {
    return inTransaction(this.o.db, async (trx) => {
      const before = await this.locked(trx, principal.tenantId, postId);
      await conflictOnDuplicate(
        trx
          .updateTable('iam_posts')
          .set({ ...input, updated_at: new Date() })
          .where('tenant_id', '=', principal.tenantId)
          .where('id', '=', postId)
          .execute(),
        'iam_posts_code',
        DUPLICATE,
      );
      const after = toView(
        (await posts(trx, principal.tenantId).where('id', '=', postId).executeTakeFirst())!,
      );
      await auditChange(this.o.audit, trx, principal, {
        action: 'update',
        targetType: 'post',
        targetId: postId,
        before: toView(before),
        after,
        summary: `updated post ${after.code}`,
      });
      return after;
    });
  }

  async remove(principal: Principal, postId: number): Promise<void> {
    await inTransaction(this.o.db, async (trx) => {
      const before = await this.locked(trx, principal.tenantId, postId);
      await conflictOnReference(
        trx
          .deleteFrom('iam_posts')
          .where('tenant_id', '=', principal.tenantId)
          .where('id', '=', postId)
          .execute(),
        'users hold this post: take it off them first',
      );
      await auditChange(this.o.audit, trx, principal, {
        action: 'delete',
        targetType: 'post',
        targetId: postId,
        before: toView(before),
        after: null,
        summary: `deleted post ${before.code}`,
      });
    });
  }

  private async locked(db: IdentityDb, tenantId: number, postId: number) {
    const row = await posts(db, tenantId).where('id', '=', postId).forUpdate().executeTakeFirst();
    if (!row) throw AppError.notFound('post');
    return row;
  }
}
