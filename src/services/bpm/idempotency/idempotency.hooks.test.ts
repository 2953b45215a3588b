import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { handleError } from '../../../platform/http/error-handler.js';
import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import { idempotencyHooks, type RebuildAnswer } from './idempotency.hooks.js';
import type { IdempotencyService, Outcome, Reservation } from './idempotency.service.js';

/** An in-memory stand-in for the service that records what the hooks asked of it. */
function fakeService(outcome: Outcome | (() => Outcome)) {
  const calls = {
    begin: [] as Array<{ key: string; tenantId: number; userId: number; hash: string }>,
    finish: [] as Array<{ status: number; body: string }>,
    finishCommitted: [] as Array<{ key: string; status: number; body: string }>,
    release: 0,
  };
  const held = new WeakMap<object, Reservation>();
  const service = {
    hold: (request: object, r: Reservation) => void held.set(request, r),
    heldBy: (request: object) => held.get(request),
    drop: (request: object) => void held.delete(request),
    async finishCommitted(ref: { key: string }, status: number, body: string) {
      calls.finishCommitted.push({ key: ref.key, status, body });
    },
    async begin(ref: { key: string; tenantId: number; userId: number }, hash: string) {
      calls.begin.push({ ...ref, hash });
      return typeof outcome === 'function' ? outcome() : outcome;
    },
    async finish(_r: Reservation, status: number, body: string) {
      calls.finish.push({ status, body });
    },
    async release() {
      calls.release++;
    },
  };
  return { service: service as unknown as IdempotencyService, calls };
}

const reservation: Reservation = { tenantId: 3, userId: 7, key: 'k1', reservedAt: new Date(0) };
const run: Outcome = { kind: 'run', reservation };

async function appWith(
  service: IdempotencyService,
  handler: () => Promise<unknown>,
  rebuild?: RebuildAnswer,
) {
  const app = Fastify();
  app.setErrorHandler(handleError);
  let ran = 0;
  app.post(
    '/act',
    { ...idempotencyHooks(service, () => ({ tenantId: 3, userId: 7 }), rebuild) },
    async () => {
      ran++;
      return handler();
    },
  );
  await app.ready();
  return { app, ran: () => ran };
}

let close: (() => Promise<unknown>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('idempotency hooks', () => {
  it('answer a key whose change committed but whose answer was lost with the rebuilt answer, stored', async () => {
    const { service, calls } = fakeService({ kind: 'committed' });
    const { app, ran } = await appWith(
      service,
      async () => ({ acted: true }),
      async () => ({ id: 5, status: 'approved' }),
    );
    close = () => app.close();
    const res = await app.inject({
      method: 'POST',
      url: '/act',
      payload: {},
      headers: { 'idempotency-key': 'k1' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['idempotent-replayed']).toBe('true');
    expect(res.json()).toEqual({
      code: 200,
      message: 'success',
      data: { id: 5, status: 'approved' },
    });
    expect(ran()).toBe(0);
    expect(calls.finishCommitted).toEqual([{ key: 'k1', status: 200, body: res.body }]);
  });

  it('refuse to run again a committed key whose answer cannot be rebuilt', async () => {
    const { service } = fakeService({ kind: 'committed' });
    const { app, ran } = await appWith(service, async () => ({ acted: true }));
    close = () => app.close();
    const res = await app.inject({
      method: 'POST',
      url: '/act',
      payload: {},
      headers: { 'idempotency-key': 'k1' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/carried out/);
    expect(ran()).toBe(0);
  });

  it('leave a request without the header alone', async () => {
    const { service, calls } = fakeService(run);
    const { app, ran } = await appWith(service, async () => ({ ok: true }));
    close = () => app.close();
    const res = await app.inject({ method: 'POST', url: '/act', payload: { a: 1 } });
    expect(res.statusCode).toBe(200);
    expect(ran()).toBe(1);
    expect(calls.begin).toEqual([]);
  });

  it('store the exact text and status of a success under the caller and request', async () => {
    const { service, calls } = fakeService(run);
    const { app } = await appWith(service, async () => ({ code: 200, data: { id: 1 } }));
    close = () => app.close();
    const res = await app.inject({
      method: 'POST',
      url: '/act?x=1',
      payload: { b: 2, a: 1 },
      headers: { 'idempotency-key': 'k1' },
    });
    expect(calls.begin).toEqual([
      { tenantId: 3, userId: 7, key: 'k1', hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    expect(calls.finish).toEqual([{ status: 200, body: res.body }]);
    expect(calls.release).toBe(0);
  });

  it('store a 4xx answer', async () => {
    const { service, calls } = fakeService(run);
    const { app } = await appWith(service, async () => {
      throw new AppError(ERROR_CODES.COMMENT_REQUIRED);
    });
    close = () => app.close();
    const res = await app.inject({
      method: 'POST',
      url: '/act',
      payload: {},
      headers: { 'idempotency-key': 'k1' },
    });
    expect(res.statusCode).toBe(400);
    expect(calls.finish).toEqual([{ status: 400, body: res.body }]);
  });

  it('release the key after a 5xx instead of storing it', async () => {
    const { service, calls } = fakeService(run);
    const { app } = await appWith(service, async () => {
      throw new Error('database went away');
    });
    close = () => app.close();
    const res = await app.inject({
      method: 'POST',
      url: '/act',
      payload: {},
      headers: { 'idempotency-key': 'k1' },
    });
    expect(res.statusCode).toBe(500);
    expect(calls.finish).toEqual([]);
    expect(calls.release).toBe(1);
  });

  it('replay a stored answer without running the handler', async () => {
    const stored = '{"code":200,"message":"success","data":{"id":42}}';
    const { service, calls } = fakeService({ kind: 'replay', statusCode: 201, body: stored });
    const { app, ran } = await appWith(service, async () => ({ never: true }));
    close = () => app.close();
    const res = await app.inject({
      method: 'POST',
      url: '/act',
      payload: {},
      headers: { 'idempotency-key': 'k1' },
    });
    expect(ran()).toBe(0);
    expect(res.statusCode).toBe(201);
    expect(res.body).toBe(stored);
    expect(res.headers['idempotent-replayed']).toBe('true');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(calls.finish).toEqual([]);
  });

  it('refuse a malformed key before reserving anything', async () => {
    const { service, calls } = fakeService(run);
    const { app, ran } = await appWith(service, async () => ({}));
    close = () => app.close();
    const res = await app.inject({
      method: 'POST',
      url: '/act',
      payload: {},
      headers: { 'idempotency-key': 'not ok' },
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).code).toBe(40000);
    expect(ran()).toBe(0);
    expect(calls.begin).toEqual([]);
  });
});
