import { createPrivateKey, X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeySealer } from '../../src/services/system/certificates/key-sealing.js';
import { systemCertificates } from '../../src/services/system/index.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { auditRowsOf, createTenant, eventually } from './system-fixtures.js';
import { testCertificates, type TestCertificates } from './certificate-fixtures.js';

// Edge certificates: parsed with node:crypto, the key checked against the certificate and kept
// encrypted; platform administrators only. Certificates are made with the openssl CLI.

const ENCRYPTION_KEY = 'system-encryption-key-for-tests-0123456789';
let platform: TestPlatform;
let admin: string;
let certs: TestCertificates;

beforeAll(async () => {
  certs = testCertificates();
  platform = await startTestPlatform({ SYSTEM_ENCRYPTION_KEY: ENCRYPTION_KEY });
  admin = await platform.adminToken();
});
afterAll(async () => {
  await platform?.close();
  certs?.close();
});

const call = (method: string, path: string, body?: unknown, token = admin, headers = {}) =>
  platform.call(method, path, { token, headers, ...(body !== undefined ? { body } : {}) });
const keyBody = (pem: string) =>
  pem
    .split('\n')
    .filter((l) => l && !l.startsWith('-----'))
    .join('');

describe('edge certificates', () => {
  it('are parsed, listed and read without ever answering or logging the private key', async () => {
    const { certificate, privateKey } = certs.selfSigned(90);
    const name = uniq('edge');
    const requestId = uniq('cert-upload');
    const res = await call(
      'POST',
      '/api/v1/system/certificates',
      { name, certificate, private_key: privateKey },
      admin,
      {
        'x-request-id': requestId,
      },
    );
    expect(res.status).toBe(200);
    const x509 = new X509Certificate(certificate);
    expect(res.body.data).toMatchObject({
      name,
      subject: 'CN=edge.example.test, O=Approva Tests',
      issuer: 'CN=edge.example.test, O=Approva Tests',
      sans: ['DNS:edge.example.test', 'DNS:www.example.test'],
      fingerprint256: x509.fingerprint256,
      serial_number: x509.serialNumber,
      not_after: new Date(x509.validTo).toISOString(),
      chain_length: 0,
    });
    const id = res.body.data.id;
    const detail = await call('GET', `/api/v1/system/certificates/${id}`);
    expect(detail.body.data.certificate_pem).toBe(x509.toString());
    const listed = await call('GET', `/api/v1/system/certificates?keyword=${name}`);
    expect(listed.body.data).toMatchObject({ total: 1, list: [{ id, name }] });
    for (const text of [res.text, detail.text, listed.text]) {
      expect(text).not.toContain('PRIVATE KEY');
      expect(text).not.toContain(keyBody(privateKey).slice(0, 40));
    }
    // At rest: sealed under the key derived from SYSTEM_ENCRYPTION_KEY, bound to the certificate.
    const row = await platform.kernel.database.db
      .withTables<{ sys_certificates: { id: number; private_key_encrypted: string } }>()
      .selectFrom('sys_certificates')
      .select('private_key_encrypted')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.private_key_encrypted).not.toContain(keyBody(privateKey).slice(0, 40));
    const opened = new KeySealer(ENCRYPTION_KEY).open(
      row.private_key_encrypted,
      x509.fingerprint256,
    );
    expect(x509.checkPrivateKey(createPrivateKey(opened))).toBe(true);
    // The operation log masks it; the audit row never had it.
    const logged = async () =>
      (await call('GET', `/api/v1/operation-logs?request_id=${requestId}`)).body.data.list[0];
    expect(await eventually(async () => (await logged()) !== undefined)).toBe(true);
    const entry = (await call('GET', `/api/v1/operation-logs/${(await logged()).id}`)).body.data;
    expect(JSON.parse(entry.request_body)).toMatchObject({ name, private_key: '***' });
    const [audited] = await auditRowsOf(platform, admin, 'certificate', id);
    expect(audited).toMatchObject({
      action: 'create',
      after: { name, subject: expect.any(String) },
    });
    expect(JSON.stringify(audited)).not.toContain('PRIVATE');

    expect((await call('DELETE', `/api/v1/system/certificates/${id}`)).status).toBe(200);
    expect((await call('GET', `/api/v1/system/certificates/${id}`)).status).toBe(404);
    expect((await call('DELETE', `/api/v1/system/certificates/${id}`)).status).toBe(404);
  });

  it('keep a chain after the leaf, and take an encrypted key with its passphrase', async () => {
    const { leaf, ca, privateKey } = certs.signedByCa();
    const chained = await call('POST', '/api/v1/system/certificates', {
      name: uniq('chained'),
      certificate: `${leaf}${ca}`,
      private_key: certs.encrypt(privateKey, 'open-sesame-42'),
      passphrase: 'open-sesame-42',
    });
    expect(chained.status).toBe(200);
    expect(chained.body.data).toMatchObject({
      subject: 'CN=api.example.test',
      issuer: 'CN=Approva Test CA',
      sans: ['DNS:api.example.test'],
      chain_length: 1,
    });
    const detail = await call('GET', `/api/v1/system/certificates/${chained.body.data.id}`);
    expect(new X509Certificate(detail.body.data.chain_pem).subject).toBe('CN=Approva Test CA');
  });

  it('refuse garbage, a wrong passphrase, a key of another certificate and a broken chain (40001)', async () => {
    const { certificate, privateKey } = certs.selfSigned(30);
    const other = certs.selfSigned(30);
    const { leaf, ca, privateKey: leafKey } = certs.signedByCa();
    const before = (await call('GET', '/api/v1/system/certificates')).body.data.total;
    const cases: Array<[string, Record<string, unknown>]> = [
      ['certificate', { certificate: 'hello', private_key: privateKey }],
      ['certificate', { certificate: certificate.slice(0, 200), private_key: privateKey }],
      [
        'certificate',
        {
          certificate:
            '-----BEGIN CERTIFICATE-----\nnot base64 at all!\n-----END CERTIFICATE-----\n',
          private_key: privateKey,
        },
      ],
      ['private_key', { certificate, private_key: 'not a key' }],
      ['private_key', { certificate, private_key: other.privateKey }],
      [
        'private_key',
        {
          certificate: leaf,
          private_key: certs.encrypt(leafKey, 'right-one'),
          passphrase: 'wrong',
        },
      ],
      ['certificate', { certificate: `${leaf}${other.certificate}`, private_key: leafKey }],
      ['certificate', { certificate: `${ca}${leaf}`, private_key: leafKey }],
    ];
    for (const [field, body] of cases) {
      const res = await call('POST', '/api/v1/system/certificates', { name: uniq('bad'), ...body });
      expect([res.status, res.body.code, res.body.data?.fields?.[0]?.field], field).toEqual([
        400,
        40001,
        field,
      ]);
      expect(res.text).not.toContain('PRIVATE KEY');
    }
    for (const body of [
      { certificate, private_key: privateKey },
      { name: 'x', certificate: 7, private_key: privateKey },
    ]) {
      const res = await call('POST', '/api/v1/system/certificates', body);
      expect([res.status, res.body.code]).toEqual([400, 40001]);
    }
    expect((await call('GET', '/api/v1/system/certificates')).body.data.total).toBe(before);
    const name = uniq('dup');
    expect(
      (
        await call('POST', '/api/v1/system/certificates', {
          name,
          certificate,
          private_key: privateKey,
        })
      ).status,
    ).toBe(200);
    const dup = await call('POST', '/api/v1/system/certificates', {
      name,
      certificate,
      private_key: privateKey,
    });
    expect([dup.status, dup.body.code]).toEqual([409, 40900]);
  });

  it('tell the monitor which expire within a number of days', async () => {
    const soon = certs.selfSigned(10, 'soon.example.test');
    const later = certs.selfSigned(100, 'later.example.test');
    const [a, b] = [uniq('soon'), uniq('later')];
    await call('POST', '/api/v1/system/certificates', {
      name: a,
      certificate: soon.certificate,
      private_key: soon.privateKey,
    });
    await call('POST', '/api/v1/system/certificates', {
      name: b,
      certificate: later.certificate,
      private_key: later.privateKey,
    });
    const expiring = await systemCertificates(platform.kernel).expiringWithin(30);
    const names = expiring.map((c) => c.name);
    expect(names).toContain(a);
    expect(names).not.toContain(b);
    expect(expiring.find((c) => c.name === a)).toEqual({
      id: expect.any(Number),
      name: a,
      subject: 'CN=soon.example.test, O=Approva Tests',
      not_after: new Date(new X509Certificate(soon.certificate).validTo).toISOString(),
    });
    expect(
      (await systemCertificates(platform.kernel).expiringWithin(200)).map((c) => c.name),
    ).toContain(b);
  });

  it('are for platform administrators holding the code only', async () => {
    const tenant = await createTenant(platform, admin);
    const { certificate, privateKey } = certs.selfSigned(30);
    const post = await call(
      'POST',
      '/api/v1/system/certificates',
      { name: uniq('t'), certificate, private_key: privateKey },
      tenant.token,
    );
    expect([post.status, post.body.code]).toEqual([403, 40300]);
    expect((await call('GET', '/api/v1/system/certificates', undefined, tenant.token)).status).toBe(
      403,
    );
    expect((await call('GET', '/api/v1/system/certificates/abc')).body.code).toBe(40000);
  });
});
