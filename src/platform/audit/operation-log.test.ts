import pino from 'pino';
import { Counter, Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  comparablePath,
  isRecordedPath,
  keepsBpmKey,
  maskingFor,
  moduleAndAction,
  omitsBodies,
} from './operation-log-hook.js';
import {
  OperationLogRecorder,
  type DropCounter,
  type OperationLogEntry,
  type OperationLogWriter,
} from './operation-log.js';

const logger = pino({ level: 'silent' });

const entry = (n: number): OperationLogEntry => ({
  tenantId: 1,
  anonymous: false,
  userId: 1,
  username: 'admin',
  module: 'users',
  action: 'GET /users',
  method: 'GET',
  path: '/api/v1/users',
  status: 200,
  ip: '127.0.0.1',
  userAgent: 'test',
  latencyMs: 1,
  requestId: `r${n}`,
  requestBody: null,
  responseBody: null,
  createdAt: new Date(0),
});

/** A prom-client counter as createHttpApp wires it, plus a reader for the test. */
function dropCounter() {
  const registry = new Registry();
  const counter = new Counter({
    name: 'audit_operation_logs_dropped_total',
    help: 'dropped',
    labelNames: ['reason'],
    registers: [registry],
  });
  const count: DropCounter = (reason, n) => counter.inc({ reason }, n);
  const read = async (reason: string) =>
    (await counter.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;
  return { count, read };
}

let recorder: OperationLogRecorder | undefined;
beforeEach(() => vi.useFakeTimers());
afterEach(async () => {
  vi.useRealTimers();
  recorder = undefined;
});

function start(
  write: OperationLogWriter,
  extra: Partial<ConstructorParameters<typeof OperationLogRecorder>[0]> = {},
) {
  recorder = new OperationLogRecorder({ write, logger, ...extra });
  return recorder;
}

describe('OperationLogRecorder', () => {
  it('writes queued entries in batches of 100 on the flush timer', async () => {
    const batches: OperationLogEntry[][] = [];
    const r = start(async (entries) => void batches.push(entries));
    for (let i = 0; i < 250; i++) r.record(entry(i));
    await vi.advanceTimersByTimeAsync(1000);
    expect(batches.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(batches.flat().map((e) => e.requestId)).toEqual(
      Array.from({ length: 250 }, (_, i) => `r${i}`),
    );
    expect(r.pending).toBe(0);
    await r.close();
  });

  it('between timer ticks writes only full batches, never the few that came in meanwhile', async () => {
    const batches: number[] = [];
    let release: () => void = () => undefined;
    const r = start(async (entries) => {
      batches.push(entries.length);
      await new Promise<void>((resolve) => (release = resolve));
    });
    for (let i = 0; i < 100; i++) r.record(entry(i)); // a full batch: written at once
    expect(batches).toEqual([100]);
    for (let i = 100; i < 130; i++) r.record(entry(i)); // arrive while it is written
    release();
    await vi.advanceTimersByTimeAsync(10);
    expect(batches).toEqual([100]);
    expect(r.pending).toBe(30);
    await vi.advanceTimersByTimeAsync(1000); // the timer writes the rest
    release();
    expect(batches).toEqual([100, 30]);
    await vi.advanceTimersByTimeAsync(10);
    expect(r.pending).toBe(0);
  });

  it('flushes on the timer even when fewer than a batch are waiting', async () => {
    const write = vi.fn(async () => undefined);
    const r = start(write);
    r.record(entry(1));
    expect(write).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(write).toHaveBeenCalledTimes(1);
    await r.close();
  });

  it('drops and counts a batch whose write throws, never throwing to the caller', async () => {
    const { count, read } = dropCounter();
    const r = start(async () => {
      throw new Error('database down');
    });
    expect(() => r.record(entry(1), count)).not.toThrow();
    r.record(entry(2), count);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await read('write_failed')).toBe(2);
    expect(r.pending).toBe(0);
    await r.close();
  });

  it('gives up on a write that hangs past 2 s and counts it as a timeout', async () => {
    const { count, read } = dropCounter();
    const r = start(() => new Promise<void>(() => undefined));
    r.record(entry(1), count);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await read('write_timeout')).toBe(0);
    await vi.advanceTimersByTimeAsync(2000);
    expect(await read('write_timeout')).toBe(1);
    // The next batch is written again once the hung one was given up.
    r.record(entry(2), count);
    await vi.advanceTimersByTimeAsync(3000);
    expect(await read('write_timeout')).toBe(2);
  });

  it('keeps at most 1000 waiting entries and counts every one beyond', async () => {
    const { count, read } = dropCounter();
    let release!: () => void;
    const writes: number[] = [];
    const r = start(
      (entries) => {
        writes.push(entries.length);
        return new Promise<void>((resolve) => (release = resolve));
      },
      { writeTimeoutMs: 60_000 },
    );
    // The first 100 start a write that stays in flight; 1000 more fill the buffer.
    for (let i = 0; i < 1100 + 25; i++) r.record(entry(i), count);
    expect(r.pending).toBe(1000);
    expect(await read('buffer_full')).toBe(25);
    release();
    await vi.advanceTimersByTimeAsync(0);
    for (let i = 0; i < 10; i++) {
      release();
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(writes.reduce((a, b) => a + b, 0)).toBe(1100);
    expect(r.pending).toBe(0);
  });

  it('writes the remainder on close and counts entries recorded after it', async () => {
    const { count, read } = dropCounter();
    const written: OperationLogEntry[] = [];
    const r = start(async (entries) => void written.push(...entries));
    r.record(entry(1));
    r.record(entry(2));
    await r.close();
    expect(written).toHaveLength(2);
    r.record(entry(3), count);
    expect(await read('closed')).toBe(1);
  });
});

describe('operation-log routing rule', () => {
  it('records /api/v1 routes only', () => {
    expect(isRecordedPath('/api/v1/users')).toBe(true);
    expect(isRecordedPath('/api/v1/login')).toBe(true);
    expect(isRecordedPath('/health/ready')).toBe(false);
    expect(isRecordedPath('/metrics')).toBe(false);
    expect(isRecordedPath('/api/v1/bpm/health/ready')).toBe(false);
    expect(isRecordedPath('/api/v1/bpm/internal/instances')).toBe(false);
    expect(isRecordedPath('/api/v1x')).toBe(false);
  });

  it('takes the module from the first segment and the action from the route pattern', () => {
    expect(
      moduleAndAction('POST', '/api/v1/bpm/tasks/7/approve', '/api/v1/bpm/tasks/:id/approve'),
    ).toEqual({
      module: 'bpm',
      action: 'POST /bpm/tasks/:id/approve',
    });
    expect(moduleAndAction('GET', '/api/v1/nowhere/1', undefined)).toEqual({
      module: 'nowhere',
      action: 'GET (unmatched)',
    });
  });
});

describe('which bodies are stored', () => {
  const omits = (method: string, path: string) => omitsBodies(method, comparablePath(path));

  it('omits the bodies of second-factor, password and OAuth client secret routes', () => {
    for (const path of [
      '/api/v1/me/totp',
      '/api/v1/me/totp/enroll',
      '/api/v1/me/totp/confirm/',
      '/api/v1/ME/Totp/disable',
      '/api/v1//me/./totp/enroll',
      '/api/v1/me/%74otp/enroll',
      '/api/v1/me/password',
      '/api/v1/password/forgot',
      '/api/v1/password/reset',
      '/api/v1/oauth2/clients/c_1/secret',
    ]) {
      expect(omits('POST', path), path).toBe(true);
    }
    expect(omits('POST', '/api/v1/oauth2/clients')).toBe(true);
    expect(omits('GET', '/api/v1/oauth2/clients')).toBe(false);
    expect(omits('PUT', '/api/v1/oauth2/clients/c_1')).toBe(false);
    expect(omits('POST', '/api/v1/users')).toBe(false);
    expect(omits('POST', '/api/v1/login')).toBe(false);
    // A path that does not decode is routed nowhere: nothing of it is stored.
    expect(omits('POST', '/api/v1/%zz')).toBe(true);
  });

  it('keeps BPM bodies by an allow-list of ids, statuses and codes, whatever the path spelling', () => {
    for (const key of ['id', 'task_id', 'user_ids', 'status', 'code', 'result', 'data']) {
      expect(keepsBpmKey(key), key).toBe(true);
    }
    for (const key of ['form', 'form_patch', 'comment', 'changes', 'title', 'inputs', 'name']) {
      expect(keepsBpmKey(key), key).toBe(false);
    }
    expect(maskingFor(comparablePath('/api/v1//BPM/tasks/1/approve')!).keeps).toBe(keepsBpmKey);
    expect(maskingFor(comparablePath('/api/v1/users')!).keeps).toBeUndefined();
  });
});
