import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import type { Principal } from '../../../platform/auth/principal.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { AppError, DEFAULT_MESSAGES, type ErrorCode } from '../../../platform/errors.js';
import { auditChange } from '../audit.js';
import type { SystemDb } from '../system.tables.js';
import type { ErrorTextView, UpdateErrorTextInput } from './error-texts.schema.js';

const KNOWN = Object.keys(DEFAULT_MESSAGES)
  .map(Number)
  .sort((a, b) => a - b) as ErrorCode[];

const isKnown = (code: number): code is ErrorCode => code in DEFAULT_MESSAGES;

function viewOf(code: ErrorCode, row?: { message: string; updated_at: Date }): ErrorTextView {
  return {
    code,
    http_status: Math.floor(code / 100),
    default_message: DEFAULT_MESSAGES[code],
    message: row?.message ?? DEFAULT_MESSAGES[code],
    overridden: row !== undefined,
    updated_at: row ? row.updated_at.toISOString() : null,
  };
}

/**
 * The platform's error texts: one per application code, overriding the default in every
 * service's envelope. Writes only the table; each process picks a change up on its next reload
 * (src/platform/http/error-texts.ts), so every replica shows it within the refresh interval.
 */
export class ErrorTextsService {
  constructor(private readonly o: { db: SystemDb; audit: BusinessAuditWriter }) {}

  async list(): Promise<ErrorTextView[]> {
    const rows = await this.o.db.selectFrom('sys_error_texts').selectAll().execute();
    const byCode = new Map(rows.map((r) => [Number(r.code), r]));
    return KNOWN.map((code) => viewOf(code, byCode.get(code)));
  }

  async update(principal: Principal, code: number, input: UpdateErrorTextInput) {
    if (!isKnown(code)) throw AppError.notFound('error code');
    return inTransaction(this.o.db, async (trx) => {
      const before = await this.find(trx, code);
      const row = await trx
        .insertInto('sys_error_texts')
        .values({ code, message: input.message, updated_by: principal.userId })
        .onConflict((oc) =>
          oc.column('code').doUpdateSet({
            message: input.message,
            updated_by: principal.userId,
            updated_at: new Date(),
          }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      const after = viewOf(code, row);
      await auditChange(this.o.audit, trx, principal, {
        action: 'update',
        targetType: 'error_text',
        targetId: code,
        before: viewOf(code, before),
        after,
        summary: `changed the text of error ${code}`,
      });
      return after;
    });
  }

  /** Back to the default text; restoring a code that has none is a no-op (no audit row). */
  async restore(principal: Principal, code: number): Promise<ErrorTextView> {
    if (!isKnown(code)) throw AppError.notFound('error code');
    return inTransaction(this.o.db, async (trx) => {
      const before = await this.find(trx, code);
      if (!before) return viewOf(code);
      await trx.deleteFrom('sys_error_texts').where('code', '=', code).execute();
      const after = viewOf(code);
      await auditChange(this.o.audit, trx, principal, {
        action: 'delete',
        targetType: 'error_text',
        targetId: code,
        before: viewOf(code, before),
        after,
        summary: `restored the default text of error ${code}`,
      });
      return after;
    });
  }

  private find(db: SystemDb, code: number) {
    return db
      .selectFrom('sys_error_texts')
      .selectAll()
      .where('code', '=', code)
      .forUpdate()
      .executeTakeFirst();
  }
}
