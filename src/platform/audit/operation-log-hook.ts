import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceMetrics } from '../metrics/metrics.js';
import { normalizePath } from '../http/request-path.js';
import { maskBody, OMITTED, parseSmallJson, type MaskOptions } from './masking.js';
import type { DropCounter, OperationLogEntry, OperationLogRecorder } from './operation-log.js';

const API_PREFIX = '/api/v1';
const MAX_PATH_CHARS = 2048;
const MAX_SHORT_CHARS = 256;

/** Only `/api/v1` routes are recorded: never health probes, metrics or internal endpoints. */
export function isRecordedPath(path: string): boolean {
  if (path !== API_PREFIX && !path.startsWith(`${API_PREFIX}/`)) return false;
  return !/\/(internal|health)(\/|$)/.test(path);
}

/**
 * The rule for `module` and `action`: `module` is the first path segment after `/api/v1`
 * (`users`, `roles`, `bpm`, `login`, `operation-logs`, …); `action` is the method and the
 * matched route pattern without `/api/v1` (`POST /users`, `POST /bpm/tasks/:id/approve`), or
 * the method and `(unmatched)` for a path no route serves.
 */
export function moduleAndAction(
  method: string,
  path: string,
  routePattern: string | undefined,
): { module: string; action: string } {
  const rest = path.slice(API_PREFIX.length).replace(/^\/+/, '');
  const module = (rest.split('/')[0] ?? '').slice(0, 64) || 'root';
  const pattern = routePattern?.startsWith(API_PREFIX)
    ? routePattern.slice(API_PREFIX.length) || '/'
    : '(unmatched)';
  return { module, action: `${method} ${pattern}`.slice(0, MAX_SHORT_CHARS) };
}

// Bodies of these requests are never stored: they carry a second factor (the TOTP secret and
// its otpauth URI, one-time and recovery codes), a password or a reset token, or an OAuth
// client secret shown once. Matched on the normalised, lower-cased path.
const OMITTED_BODIES = /^\/api\/v1\/(me\/totp|me\/password|password)(\/|$)/;
const OAUTH_CLIENTS = /^\/api\/v1\/oauth2\/clients(\/[^/]+\/secret)?$/;

/**
 * `path` as the rules below match it: decoded, dots and repeated slashes resolved (as a router
 * resolves it), lower-cased, without a trailing slash; null when it does not decode.
 */
export function comparablePath(path: string): string | null {
  return (
    normalizePath(path)
      ?.toLowerCase()
      .replace(/(.)\/$/, '$1') ?? null
  );
}

/** True when neither body of a `method` request to `path` (see `comparablePath`) is stored. */
export function omitsBodies(method: string, path: string | null): boolean {
  // A path that does not decode is routed nowhere: storing none of its bodies loses nothing.
  if (path === null) return true;
  return OMITTED_BODIES.test(path) || (method.toUpperCase() === 'POST' && OAUTH_CLIENTS.test(path));
}

// BPM bodies carry form values, comments and the before/after of approvers' edits: who may see
// them is BPM's rule, and readers of the operation log are not its participants. So only what
// says what happened is kept: ids, statuses, results, actions, codes, times and the containers
// holding them; every other member is `"***"`.
const BPM_PREFIX = `${API_PREFIX}/bpm/`;
const BPM_KEPT_KEYS = new Set([
  // The envelope, lists and validation problems.
  'code',
  'message',
  'data',
  'list',
  'total',
  'page',
  'page_size',
  'fields',
  'field',
  'rule',
  // What was acted on and how it ended.
  'id',
  'ids',
  'key',
  'definition_key',
  'version',
  'definition_version',
  'status',
  'instance_status',
  'result',
  'action',
  'actions',
  'kind',
  'to',
  'position',
  'round',
  'ok',
  'succeeded',
  'failed',
  'results',
  'tasks',
  'instance',
  'task',
  'details',
  'current_node_ids',
  'created_at',
  'updated_at',
  'published_at',
  'finished_at',
  'due_at',
  'read_at',
]);
/** Keys a reader of BPM's operation log sees: the list above and every `…_id` / `…_ids`. */
export function keepsBpmKey(key: string): boolean {
  return BPM_KEPT_KEYS.has(key) || key.endsWith('_id') || key.endsWith('_ids');
}
const BPM_MASKING: MaskOptions = { keeps: keepsBpmKey };
const NO_EXTRA_MASKING: MaskOptions = {};

/** How the bodies of a request to `path` (see `comparablePath`) are masked beyond secrets. */
export function maskingFor(path: string): MaskOptions {
  return path.startsWith(BPM_PREFIX) ? BPM_MASKING : NO_EXTRA_MASKING;
}

const isEmpty = (body: unknown) => body === undefined || body === null || body === '';

const field = (value: unknown, key: string): unknown =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
const asId = (value: unknown) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
const asText = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * The operation-log entry of one answered request, timed when the request arrived: the hook runs
 * after the answer is sent, so a client could otherwise see its answer before the time its own
 * entry carries.
 */
export function entryOf(
  request: FastifyRequest,
  reply: FastifyReply,
  responsePayload: unknown,
  now = Date.now(),
): OperationLogEntry {
  const path = request.url.split('?')[0]!;
  // Parsed only when small (bounded work); larger answers are cut and masked as text.
  const parsed = typeof responsePayload === 'string' ? parseSmallJson(responsePayload) : undefined;
  const response = parsed ?? responsePayload;
  const principal = (request as { principal?: FastifyRequest['principal'] }).principal ?? null;
  // A request without a token is attributed only to what the server itself established: the
  // user a successful sign-in answers with. Anything else (a failed sign-in, a refusal) is
  // anonymous: stored without a tenant (platform admins read it), never in the tenant a body
  // names.
  const user = reply.statusCode < 400 ? field(field(response, 'data'), 'user') : undefined;
  const userId = principal?.userId ?? asId(field(user, 'id'));
  const tenantId = principal?.tenantId ?? (userId === null ? null : asId(field(user, 'tenant_id')));
  const body = request.body;
  const userHeader = request.headers['user-agent'];
  const comparable = comparablePath(path);
  const omitted = omitsBodies(request.method, comparable);
  const masking = maskingFor(comparable ?? path);
  return {
    tenantId,
    anonymous: tenantId === null,
    userId: tenantId === null ? null : userId,
    username: (
      principal?.username ??
      asText(field(user, 'username')) ??
      asText(field(body, 'username')) ??
      ''
    ).slice(0, MAX_SHORT_CHARS),
    ...moduleAndAction(request.method, path, request.routeOptions.url),
    method: request.method,
    path: path.slice(0, MAX_PATH_CHARS),
    status: reply.statusCode,
    ip: (request.ip ?? '').slice(0, MAX_SHORT_CHARS),
    userAgent: (typeof userHeader === 'string' ? userHeader : '').slice(0, 512),
    latencyMs: Math.max(0, Math.round(reply.elapsedTime)),
    requestId: request.id,
    requestBody: omitted ? (isEmpty(body) ? null : OMITTED) : maskBody(body, masking),
    responseBody: omitted ? (isEmpty(response) ? null : OMITTED) : maskBody(response, masking),
    createdAt: new Date(now - Math.max(0, reply.elapsedTime)),
  };
}

export interface RecordingOptions {
  /** The app's metrics: dropped entries are counted in `audit_operation_logs_dropped_total`. */
  metrics?: ServiceMetrics | undefined;
  /** Which answered requests to record; default all of `/api/v1`. */
  when?: ((request: FastifyRequest) => boolean) | undefined;
}

/**
 * Records every `/api/v1` request of `app` after its response has been sent (onResponse): the
 * entry goes into the recorder's buffer and nothing here can fail or delay the request.
 */
export function recordOperationLogs(
  app: FastifyInstance,
  recorder: OperationLogRecorder,
  { metrics, when }: RecordingOptions = {},
): void {
  const dropped = metrics?.counter(
    'audit_operation_logs_dropped_total',
    'Operation-log entries dropped: buffer full, write failed or timed out, recorder closed',
    ['reason'],
  );
  const onDrop: DropCounter | undefined = dropped && ((reason, n) => dropped.inc({ reason }, n));
  // Callback hooks, not async ones: no promise per request on the hot path.
  const payloads = new WeakMap<FastifyRequest, unknown>();
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (isRecordedPath(request.url.split('?')[0]!)) payloads.set(request, payload);
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    // onSend ran for every response that was sent; one without a payload entry is not recorded.
    if (payloads.has(request) && (!when || when(request))) {
      try {
        recorder.record(entryOf(request, reply, payloads.get(request)), onDrop);
      } catch (err) {
        request.log.warn({ err }, 'operation log entry not recorded');
      }
    }
    done();
  });
}
