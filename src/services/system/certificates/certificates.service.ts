import { sql, type Selectable } from 'kysely';
import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import type { Principal } from '../../../platform/auth/principal.js';
import { conflictOnDuplicate } from '../../../platform/db/constraint-errors.js';
import { containsPattern } from '../../../platform/db/like-pattern.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { AppError } from '../../../platform/errors.js';
import { pageResult, parsePage } from '../../../platform/http/envelope.js';
import { toIso } from '../../../platform/http/params.js';
import { auditChange } from '../audit.js';
import type { SystemDb, SystemTables } from '../system.tables.js';
import type {
  CertificateDetail,
  CertificateView,
  ListCertificatesQuery,
  UploadCertificateInput,
} from './certificates.schema.js';
import type { KeySealer } from './key-sealing.js';
import { parseCertificateUpload } from './parse-certificate.js';

type CertificateRow = Selectable<SystemTables['sys_certificates']>;

const countCerts = (pem: string) => pem.split('-----BEGIN CERTIFICATE-----').length - 1;

const toView = (row: Omit<CertificateRow, 'private_key_encrypted'>): CertificateView => ({
  id: row.id,
  name: row.name,
  subject: row.subject,
  issuer: row.issuer,
  sans: row.sans as string[],
  serial_number: row.serial_number,
  not_before: toIso(row.not_before),
  not_after: toIso(row.not_after),
  fingerprint256: row.fingerprint256,
  chain_length: countCerts(row.chain_pem),
  created_by: row.created_by,
  created_at: toIso(row.created_at),
});

/** Every column but the sealed key: no read path ever selects it. */
const PUBLIC_COLUMNS = [
  'id',
  'name',
  'subject',
  'issuer',
  'sans',
  'serial_number',
  'not_before',
  'not_after',
  'fingerprint256',
  'certificate_pem',
  'chain_pem',
  'created_by',
  'created_at',
] as const;

/** The edge's TLS certificates (platform-wide): uploaded, listed, deleted; keys sealed. */
export class CertificatesService {
  constructor(
    private readonly o: { db: SystemDb; audit: BusinessAuditWriter; sealer: KeySealer },
  ) {}

  async list(query: ListCertificatesQuery) {
    const page = parsePage(query);
    let q = this.o.db.selectFrom('sys_certificates');
    if (query.keyword) {
      const pattern = containsPattern(query.keyword);
      q = q.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('subject', 'ilike', pattern)]));
    }
    const [rows, count] = await Promise.all([
      q
        .select(PUBLIC_COLUMNS)
        .orderBy('not_after')
        .orderBy('id')
        .limit(page.pageSize)
        .offset(page.offset)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return pageResult(rows.map(toView), Number(count.n), page);
  }

  async get(id: number): Promise<CertificateDetail> {
    const row = await this.find(this.o.db, id);
    return { ...toView(row), certificate_pem: row.certificate_pem, chain_pem: row.chain_pem };
  }

  async upload(principal: Principal, input: UploadCertificateInput): Promise<CertificateView> {
    const parsed = parseCertificateUpload(input);
    const sealed = this.o.sealer.seal(parsed.privateKeyPem, parsed.fingerprint256);
    return inTransaction(this.o.db, async (trx) => {
      const row = await conflictOnDuplicate(
        trx
          .insertInto('sys_certificates')
          .values({
            name: input.name,
            subject: parsed.subject,
            issuer: parsed.issuer,
            sans: sql`${JSON.stringify(parsed.sans)}::jsonb`,
            serial_number: parsed.serialNumber,
            not_before: parsed.notBefore,
            not_after: parsed.notAfter,
            fingerprint256: parsed.fingerprint256,
            certificate_pem: parsed.certificatePem,
            chain_pem: parsed.chainPem,
            private_key_encrypted: sealed,
            created_by: principal.userId,
          })
          .returning(PUBLIC_COLUMNS)
          .executeTakeFirstOrThrow(),
        'sys_certificates_name',
        'a certificate with this name exists',
      );
      const after = toView(row);
      await auditChange(this.o.audit, trx, principal, {
        action: 'create',
        targetType: 'certificate',
        targetId: row.id,
        before: null,
        after,
        summary: `uploaded certificate ${row.name} (${row.subject})`,
      });
      return after;
    });
  }

  async remove(principal: Principal, id: number): Promise<void> {
    await inTransaction(this.o.db, async (trx) => {
      const before = await this.find(trx, id, true);
      await trx.deleteFrom('sys_certificates').where('id', '=', id).execute();
      await auditChange(this.o.audit, trx, principal, {
        action: 'delete',
        targetType: 'certificate',
        targetId: id,
        before: toView(before),
        after: null,
        summary: `deleted certificate ${before.name}`,
      });
    });
  }

  private async find(db: SystemDb, id: number, lock = false) {
    const query = db.selectFrom('sys_certificates').select(PUBLIC_COLUMNS).where('id', '=', id);
    const row = await (lock ? query.forUpdate() : query).executeTakeFirst();
    if (!row) throw AppError.notFound('certificate');
    return row;
  }
}

/** Certificates whose `not_after` falls within `days` from now (or has passed), soonest first. */
export async function certificatesExpiringWithin(db: SystemDb, days: number, now = new Date()) {
  const until = new Date(now.getTime() + days * 86_400_000);
  const rows = await db
    .selectFrom('sys_certificates')
    .select(['id', 'name', 'subject', 'not_after'])
    .where('not_after', '<=', until)
    .orderBy('not_after')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    subject: r.subject,
    not_after: toIso(r.not_after),
  }));
}
