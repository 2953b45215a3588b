import { createHash, randomBytes } from 'node:crypto';
import { access, mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bodyDigest,
  signedGatewayHeaders,
  UNSIGNED_PAYLOAD,
  type Principal,
} from '../../src/platform/auth/principal.js';
import { UrlSigner } from '../../src/services/files/url-signer.js';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import { createTenantWithAdmin, dataOf, signedInUserWith } from '../identity/identity-fixtures.js';
import { download, patternChunk, storedFiles, streamUpload, upload } from './files-fixtures.js';

const MAX_SIZE = 2 * 1024 * 1024;
let platform: TestPlatform;
let admin: string;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'files-test-'));
  platform = await startTestPlatform({
    UPLOAD_LOCAL_DIR: dir,
    UPLOAD_MAX_SIZE: String(MAX_SIZE),
    // The orphan sweep every second; anything written in the last minute is left alone.
    UPLOAD_ORPHAN_SWEEP_INTERVAL: '1s',
    UPLOAD_ORPHAN_GRACE: '60s',
  });
  admin = await platform.adminToken();
});
afterAll(async () => {
  await platform?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A full collection before the baseline, so garbage of earlier tests is not counted as growth. */
function collectGarbage() {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const keyOf = (url: string) => url.split('?')[0]!.split('/').pop()!;

describe('upload and download', () => {
  it('round-trips the bytes exactly, under a random key, with a working signed link', async () => {
    const bytes = randomBytes(300_000);
    const res = await upload(platform, admin, bytes, 'report.pdf', 'application/pdf');
    const file = dataOf(res);
    expect(file).toMatchObject({ name: 'report.pdf', size: bytes.length });
    expect(keyOf(file.url)).toMatch(/^[0-9a-f]{32}$/);
    expect(Date.parse(file.expires_at)).toBeGreaterThan(Date.now());
    const { response, bytes: got } = await download(platform, file.url);
    expect(response.status).toBe(200);
    expect(got.equals(bytes)).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; /);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');

    const fresh = dataOf(
      await platform.call('GET', `/api/v1/files/${file.id}/url`, { token: admin }),
    );
    expect((await download(platform, fresh.url)).bytes.equals(bytes)).toBe(true);
  });

  it('serves raster images inline and everything else, SVG included, as an attachment', async () => {
    const png = dataOf(await upload(platform, admin, randomBytes(64), 'p.png', 'image/png'));
    const svg = dataOf(
      await upload(
        platform,
        admin,
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        'x.svg',
        'image/svg+xml',
      ),
    );
    const html = dataOf(
      await upload(platform, admin, Buffer.from('<script>1</script>'), 'x.html', 'text/html'),
    );
    const inline = (await download(platform, png.url)).response;
    expect(inline.headers.get('content-disposition')).toMatch(/^inline; /);
    expect(inline.headers.get('content-type')).toBe('image/png');
    for (const file of [svg, html]) {
      const { response } = await download(platform, file.url);
      expect(response.headers.get('content-disposition')).toMatch(/^attachment; /);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('keeps a path-traversal name harmless: stored under a random key, shown sanitized', async () => {
    const before = await storedFiles(dir);
    const file = dataOf(
      await upload(platform, admin, Buffer.from('x'), '../../../etc/passwd\u202e.txt'),
    );
    expect(file.name).toBe('passwd.txt');
    const after = await storedFiles(dir);
    expect(after.length).toBe(before.length + 1);
    // Everything stayed inside the storage directory, named by the key.
    expect(after.every((p) => p.startsWith(dir))).toBe(true);
    expect(after.some((p) => p.endsWith(keyOf(file.url)))).toBe(true);
    const { response } = await download(platform, file.url);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="passwd.txt"; filename*=UTF-8''passwd.txt`,
    );
  });
});

describe('limits', () => {
  it('refuses a file over UPLOAD_MAX_SIZE with 413 41300 and stores nothing', async () => {
    const before = await storedFiles(dir);
    const listBefore = dataOf(await platform.call('GET', '/api/v1/files', { token: admin })).total;
    // Just over the file cap, within the gateway's allowance: the service's multipart cap acts.
    const res = await upload(platform, admin, randomBytes(MAX_SIZE + 1));
    expect(res.status).toBe(413);
    expect(res.body.code).toBe(41300);
    expect(await storedFiles(dir)).toEqual(before);
    expect(dataOf(await platform.call('GET', '/api/v1/files', { token: admin })).total).toBe(
      listBefore,
    );
    // Far over: the gateway refuses it on the declared length.
    const far = await upload(platform, admin, randomBytes(MAX_SIZE + 200_000));
    expect(far.status).toBe(413);
    expect(far.body.code).toBe(41300);
    expect(await storedFiles(dir)).toEqual(before);
  });

  it('refuses an upload past the tenant quota with 409 40900 and stores nothing', async () => {
    const { tenant, token } = await createTenantWithAdmin(platform, admin);
    dataOf(
      await platform.call('PUT', `/api/v1/tenants/${tenant.id}`, {
        token: admin,
        body: { storage_quota_mb: 1 },
      }),
    );
    const before = await storedFiles(dir);
    // Declared length alone is over the quota: refused before anything is read.
    const big = await upload(platform, token, randomBytes(1024 * 1024 + 10));
    expect(big.status).toBe(409);
    expect(big.body.code).toBe(40900);
    expect(await storedFiles(dir)).toEqual(before);
    // Two uploads that each fit, together do not: started at once, both pass the early check;
    // the conditional update lets exactly one in and removes the other's bytes.
    const results = await Promise.all([
      upload(platform, token, randomBytes(600 * 1024)),
      upload(platform, token, randomBytes(600 * 1024)),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe(40900);
    expect((await storedFiles(dir)).length).toBe(before.length + 1);
    const list = dataOf(await platform.call('GET', '/api/v1/files', { token }));
    expect(list.total).toBe(1);
  });

  it('takes the quota of the tenant\u2019s package over the tenant\u2019s own', async () => {
    const { tenant, token } = await createTenantWithAdmin(platform, admin);
    const pkg = dataOf(
      await platform.call('POST', '/api/v1/packages', {
        token: admin,
        body: { name: `files-${tenant.id}`, menu_ids: [], storage_quota_mb: 1 },
      }),
    );
    dataOf(
      await platform.call('PUT', `/api/v1/tenants/${tenant.id}`, {
        token: admin,
        body: { storage_quota_mb: 0, package_id: pkg.id },
      }),
    );
    const over = await upload(platform, token, randomBytes(1024 * 1024 + 10));
    expect([over.status, over.body.code]).toEqual([409, 40900]);
    // Off the package, the tenant's own 0 (unlimited) applies again.
    dataOf(
      await platform.call('PUT', `/api/v1/tenants/${tenant.id}`, {
        token: admin,
        body: { package_id: null },
      }),
    );
    expect((await upload(platform, token, randomBytes(1024 * 1024 + 10))).status).toBe(200);
  });

  it(
    'streams a large upload: the process RSS grows by far less than the file',
    { timeout: 90_000 },
    async () => {
      const size = 128 * 1024 * 1024;
      const big = await startTestPlatform({
        UPLOAD_LOCAL_DIR: dir,
        UPLOAD_MAX_SIZE: String(200 * 1024 * 1024),
      });
      try {
        const token = await big.adminToken();
        await streamUpload(big, token, 1024 * 1024); // warm up every code path once
        collectGarbage();
        const baseline = process.memoryUsage().rss;
        let peak = baseline;
        const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
        const res = await streamUpload(big, token, size);
        clearInterval(sampler);
        peak = Math.max(peak, process.memoryUsage().rss);
        expect(res.status).toBe(200);
        expect(res.body.data.size).toBe(size);
        // Buffered anywhere (gateway or service), the growth would be at least the file's 128 MiB.
        // Streamed, it is a constant of the buffers in flight, the test's own sending and the heap
        // regrowing after the collection: 43-48 MB measured for 64 and 128 MiB files alike, in a
        // worker that ran other files before (it was about 1 MB in a fresh process).
        expect(peak - baseline).toBeLessThan(96 * 1024 * 1024);
        const hash = createHash('sha256');
        const response = await fetch(`${big.url}${res.body.data.url}`);
        let offset = 0;
        for await (const chunk of response.body!) {
          const c = Buffer.from(chunk as Uint8Array);
          expect(c.equals(patternChunk(offset, c.length))).toBe(true);
          offset += c.length;
          hash.update(c);
        }
        expect(offset).toBe(size);
      } finally {
        await big.close();
      }
    },
  );
});

describe('malformed requests', () => {
  it('answers 400, 415 or 40001 (never 500) and stores nothing', async () => {
    const before = await storedFiles(dir);
    const multipart = { 'content-type': 'multipart/form-data; boundary=xx' };
    const disposition = 'Content-Disposition: form-data; name="file"; filename="a"';
    for (const [body, headers, status, code] of [
      ['not multipart at all', multipart, 400, 40000],
      [`--xx\r\n${disposition}\r\n\r\nabc`, multipart, 400, 40000],
      [
        '--xx\r\nContent-Disposition: form-data; name="f"\r\n\r\nx\r\n--xx--\r\n',
        multipart,
        400,
        40001,
      ],
      ['{}', { 'content-type': 'application/json' }, 415, 41500],
      // Two files in one request: one file per upload, and neither is kept.
      [
        `--xx\r\n${disposition}\r\n\r\nabc\r\n--xx\r\n${disposition.replace('"a"', '"b"')}\r\n\r\ndef\r\n--xx--\r\n`,
        multipart,
        400,
        40001,
      ],
    ] as const) {
      const res = await platform.call('POST', '/api/v1/files', {
        token: admin,
        headers,
        rawBody: body,
      });
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status, code });
    }
    expect(await storedFiles(dir)).toEqual(before);
  });
});

describe('links', () => {
  it('answers 404 to a bare, tampered, expired or malformed link', async () => {
    const file = dataOf(await upload(platform, admin, Buffer.from('secret')));
    const [path, query] = file.url.split('?');
    const params = new URLSearchParams(query);
    const sig = params.get('sig')!;
    const expires = params.get('expires')!;
    const flipped = (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1);
    const signer = new UrlSigner(platform.settings.files.urlSignSecret, 300);
    const expired = signer.sign(keyOf(file.url), Date.now() - 3_600_000).url;
    for (const url of [
      path,
      `${path}?expires=${expires}`,
      `${path}?expires=${expires}&sig=${flipped}`,
      `${path}?expires=${Number(expires) + 1}&sig=${sig}`,
      expired,
      `/uploads/${'0'.repeat(32)}?expires=${expires}&sig=${sig}`,
    ]) {
      const { response, bytes } = await download(platform, url);
      expect(response.status, url).toBe(404);
      expect(bytes.toString()).not.toContain('secret');
    }
    // An encoded traversal never reaches a file: the platform refuses encoded separators (400).
    const traversal = await download(
      platform,
      `/uploads/..%2F..%2Fetc%2Fpasswd?expires=${expires}&sig=${sig}`,
    );
    expect([400, 404]).toContain(traversal.response.status);
    // The untampered link still works: the refusals above were about the links.
    expect((await download(platform, file.url)).response.status).toBe(200);
  });
  it('answers 404 to a signed link used with another method, and the file stays as it was', async () => {
    const file = dataOf(await upload(platform, admin, Buffer.from('secret')));
    // The signature is a read credential for GET (and HEAD, GET's headers without the body).
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const res = await fetch(`${platform.url}${file.url}`, {
        method,
        ...(['POST', 'PUT', 'PATCH'].includes(method)
          ? { body: 'replaced', headers: { 'content-type': 'application/octet-stream' } }
          : {}),
      });
      const text = await res.text();
      expect({ method, status: res.status }).toEqual({ method, status: 404 });
      expect(JSON.parse(text)).toEqual({ code: 40400, message: expect.any(String), data: null });
    }
    const head = await fetch(`${platform.url}${file.url}`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([
      200,
      '6',
      '',
    ]);
    const { response, bytes } = await download(platform, file.url);
    expect([response.status, bytes.toString()]).toEqual([200, 'secret']);
    const listed = dataOf(
      await platform.call('GET', '/api/v1/files?page_size=100', { token: admin }),
    );
    expect(listed.list.map((f: { id: number }) => f.id)).toContain(file.id);
  });
});

describe('tenants and permissions', () => {
  it("answers 404 to another tenant's file id, for links and deletes", async () => {
    const file = dataOf(await upload(platform, admin, Buffer.from('mine')));
    const other = await createTenantWithAdmin(platform, admin);
    // Naming the file's tenant in the query string changes nothing: it is ignored.
    for (const query of ['', '?tenant_id=1']) {
      const link = await platform.call('GET', `/api/v1/files/${file.id}/url${query}`, {
        token: other.token,
      });
      expect([query, link.status]).toEqual([query, 404]);
      const removed = await platform.call('DELETE', `/api/v1/files/${file.id}${query}`, {
        token: other.token,
      });
      expect([query, removed.status]).toEqual([query, 404]);
      const list = dataOf(
        await platform.call('GET', `/api/v1/files${query}`, { token: other.token }),
      );
      expect(list.list.map((f: { id: number }) => f.id)).not.toContain(file.id);
    }
  });

  it("lets a user upload and delete their own file; others' need the codes; delete is audited", async () => {
    const plain = await signedInUserWith(platform, admin, []);
    const own = dataOf(await upload(platform, plain.token, Buffer.from('own')));
    const admins = dataOf(await upload(platform, admin, Buffer.from('admin')));
    expect((await platform.call('GET', '/api/v1/files', { token: plain.token })).status).toBe(403);
    expect(
      (await platform.call('GET', `/api/v1/files/${admins.id}/url`, { token: plain.token })).status,
    ).toBe(404);
    expect(
      (await platform.call('DELETE', `/api/v1/files/${admins.id}`, { token: plain.token })).status,
    ).toBe(404);
    dataOf(await platform.call('DELETE', `/api/v1/files/${own.id}`, { token: plain.token }));
    expect((await download(platform, own.url)).response.status).toBe(404);

    const deleter = await signedInUserWith(platform, admin, ['system:file:delete']);
    dataOf(await platform.call('DELETE', `/api/v1/files/${admins.id}`, { token: deleter.token }));
    const audit = dataOf(
      await platform.call('GET', `/api/v1/logs/audit?target_type=file&target_id=${admins.id}`, {
        token: admin,
      }),
    );
    expect(audit.list[0]).toMatchObject({ action: 'delete', actor_id: deleter.user.id });
  });
});

describe('the unsigned-payload marker', () => {
  async function signedSet(principal: Principal, method: string, path: string, sha: string) {
    const requestId = `marker-${randomBytes(6).toString('hex')}`;
    return {
      'x-request-id': requestId,
      ...signedGatewayHeaders(
        { principal, clientIp: '127.0.0.1' },
        { requestId, method, path, bodySha256: sha },
        platform.settings.gateway.signingSecret,
      ),
    };
  }
  const principalOf = async (): Promise<Principal> => {
    const me = dataOf(await platform.call('GET', '/api/v1/me', { token: admin }));
    return {
      userId: me.id,
      tenantId: me.tenant_id,
      username: 'admin',
      roles: [],
      deptId: null,
      platformAdmin: true,
      permissions: ['*'],
      sessionId: 1,
    };
  };

  it('is accepted only on the route a service declares streamed', async () => {
    const principal = await principalOf();
    const body = JSON.stringify({ name: `dept-${randomBytes(4).toString('hex')}` });
    // A JSON route of another service: the marker never equals the digest it computes.
    const identity = await fetch(`${platform.serviceUrls.identity}/api/v1/departments`, {
      method: 'POST',
      headers: {
        ...(await signedSet(principal, 'POST', '/api/v1/departments', UNSIGNED_PAYLOAD)),
        'content-type': 'application/json',
      },
      body,
    });
    expect(identity.status).toBe(401);
    // Another route of the files service itself.
    const del = await fetch(`${platform.serviceUrls.files}/api/v1/files/1`, {
      method: 'DELETE',
      headers: await signedSet(principal, 'DELETE', '/api/v1/files/1', UNSIGNED_PAYLOAD),
    });
    expect(del.status).toBe(401);
    // The upload route takes the marker, and only the marker (a digest set is refused).
    const form = () => {
      const data = new FormData();
      data.append('file', new Blob([Buffer.from('marked')]), 'm.txt');
      return data;
    };
    const digestSet = await signedSet(
      principal,
      'POST',
      '/api/v1/files',
      bodyDigest(Buffer.from('x')),
    );
    const refused = await fetch(`${platform.serviceUrls.files}/api/v1/files`, {
      method: 'POST',
      headers: digestSet,
      body: form(),
    });
    expect(refused.status).toBe(401);
    const accepted = await fetch(`${platform.serviceUrls.files}/api/v1/files`, {
      method: 'POST',
      headers: await signedSet(principal, 'POST', '/api/v1/files', UNSIGNED_PAYLOAD),
      body: form(),
    });
    expect(accepted.status).toBe(200);
  });
});

describe('the orphan sweep', () => {
  const exists = (path: string) =>
    access(path).then(
      () => true,
      () => false,
    );
  const pathOf = (key: string) => join(dir, key.slice(0, 2), key);
  async function plant(key: string, hoursAgo: number) {
    await mkdir(join(dir, key.slice(0, 2)), { recursive: true });
    await writeFile(pathOf(key), 'orphan');
    const at = new Date(Date.now() - hoursAgo * 3600_000);
    await utimes(pathOf(key), at, at);
  }

  it('removes old objects no row names, and keeps files, young objects and foreign names', async () => {
    const bytes = randomBytes(1000);
    const kept = dataOf(await upload(platform, admin, bytes, 'kept.bin'));
    // The kept file's object is as old as the orphan: its row is what saves it.
    const old = new Date(Date.now() - 2 * 3600_000);
    await utimes(pathOf(keyOf(kept.url)), old, old);
    const orphan = randomBytes(16).toString('hex');
    const young = randomBytes(16).toString('hex');
    await plant(orphan, 2);
    await plant(young, 0);
    const foreign = join(dir, orphan.slice(0, 2), 'notes.txt');
    await writeFile(foreign, 'not ours');
    await utimes(foreign, old, old);

    await expect.poll(() => exists(pathOf(orphan)), { timeout: 15_000 }).toBe(false);
    expect(await exists(pathOf(young))).toBe(true);
    expect(await exists(foreign)).toBe(true);
    const { response, bytes: got } = await download(platform, kept.url);
    expect(response.status).toBe(200);
    expect(got.equals(bytes)).toBe(true);
  });

  it('reports its heartbeat to the monitor', async () => {
    await expect
      .poll(
        async () => {
          const res = await platform.call('GET', '/api/v1/monitor/jobs/heartbeats', {
            token: admin,
          });
          const jobs = dataOf(res) as { name: string; status: string }[];
          return jobs.find((j) => j.name === 'files.orphan_sweep')?.status;
        },
        { timeout: 15_000 },
      )
      .toBe('ok');
  });
});
