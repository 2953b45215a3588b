import fc from 'fast-check';

// The fuzzer's inputs: every endpoint family, and hostile queries, path ids, bodies, encodings.

/** Every endpoint family: auth, identity, BPM, audit. `:id` is filled by the fuzzer. */
export const ENDPOINTS: ReadonlyArray<readonly [string, string]> = [
  ['GET', '/api/v1/captcha'],
  ['POST', '/api/v1/login'],
  ['POST', '/api/v1/refresh'],
  ['POST', '/api/v1/logout'],
  ['GET', '/api/v1/me'],
  ['POST', '/api/v1/me/password'],
  ['POST', '/api/v1/password/forgot'],
  ['POST', '/api/v1/password/reset'],
  ...['users', 'roles', 'departments', 'tenants'].flatMap((kind) => [
    ['GET', `/api/v1/${kind}`] as const,
    ['POST', `/api/v1/${kind}`] as const,
    ['GET', `/api/v1/${kind}/:id`] as const,
    ['PUT', `/api/v1/${kind}/:id`] as const,
    ['DELETE', `/api/v1/${kind}/:id`] as const,
  ]),
  ['GET', '/api/v1/departments/tree'],
  ['GET', '/api/v1/bpm/definitions'],
  ['POST', '/api/v1/bpm/definitions'],
  ['GET', '/api/v1/bpm/definitions/:id'],
  ['PUT', '/api/v1/bpm/definitions/:id'],
  ['POST', '/api/v1/bpm/definitions/:id/publish'],
  ['POST', '/api/v1/bpm/definitions/:id/new-version'],
  ['POST', '/api/v1/bpm/definitions/:id/suspend'],
  ['POST', '/api/v1/bpm/definitions/:id/simulate'],
  ['GET', '/api/v1/bpm/startable'],
  ['POST', '/api/v1/bpm/instances'],
  ['GET', '/api/v1/bpm/instances/my'],
  ['GET', '/api/v1/bpm/instances'],
  ['GET', '/api/v1/bpm/instances/:id'],
  ['GET', '/api/v1/bpm/instances/:id/timeline'],
  ['GET', '/api/v1/bpm/instances/:id/diagram'],
  ...['cancel', 'resubmit', 'terminate', 'resume'].map(
    (action) => ['POST', `/api/v1/bpm/instances/:id/${action}`] as const,
  ),
  ['GET', '/api/v1/bpm/tasks/todo'],
  ['GET', '/api/v1/bpm/tasks/done'],
  ['GET', '/api/v1/bpm/tasks/:id'],
  ['GET', '/api/v1/bpm/tasks/:id/explain'],
  ...['approve', 'reject', 'transfer', 'return', 'add-sign', 'delegate', 'resolve'].map(
    (action) => ['POST', `/api/v1/bpm/tasks/:id/${action}`] as const,
  ),
  ['GET', '/api/v1/bpm/cc/my'],
  ['POST', '/api/v1/bpm/cc/:id/read'],
  ['GET', '/api/v1/bpm/stats'],
  ['GET', '/api/v1/operation-logs'],
  ['GET', '/api/v1/operation-logs/:id'],
  ['GET', '/api/v1/operation-logs/stats'],
  ['GET', '/api/v1/operation-logs/export'],
  ['DELETE', '/api/v1/operation-logs/clear'],
  ['GET', '/api/v1/login-logs'],
  ['GET', '/api/v1/login-logs/stats'],
  ['GET', '/api/v1/login-logs/trend'],
  ['GET', '/api/v1/login-logs/my'],
  ['GET', '/api/v1/login-logs/last'],
  ['DELETE', '/api/v1/login-logs/clear'],
  ['GET', '/api/v1/logs/audit'],
  ['GET', '/api/v1/logs/audit/export'],
  ['GET', '/api/v1/monitor/services'],
  ['GET', '/api/v1/monitor/jobs/heartbeats'],
  ['GET', '/api/v1/monitor/metrics/trends'],
  ['GET', '/api/v1/monitor/alert-rules'],
  ['POST', '/api/v1/monitor/alert-rules'],
  ['GET', '/api/v1/monitor/alert-rules/:id'],
  ['PUT', '/api/v1/monitor/alert-rules/:id'],
  ['DELETE', '/api/v1/monitor/alert-rules/:id'],
  ['GET', '/api/v1/monitor/alerts'],
];

export const NASTY_TEXT = [
  '',
  ' ',
  '0',
  '-1',
  '1.5',
  '1e309',
  '-0',
  'NaN',
  'Infinity',
  '9007199254740993',
  '99999999999999999999999999',
  '-9223372036854775809',
  'true',
  'null',
  "' OR '1'='1",
  '1; DROP TABLE iam_users;--',
  '%',
  '%00',
  '\u0000',
  '\ud800',
  '\udfff\ud800',
  '\u202eevil',
  'e\u0301',
  '日本語',
  '😀',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  '2026-13-45T99:99:99Z',
  '2026-01-01T00:00:00Z',
  'x'.repeat(5000),
];

export const nastyString = fc.oneof(
  fc.constantFrom(...NASTY_TEXT),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 300 }),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
);

export const nastyNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 2 ** 53 + 2, -(2 ** 63), 1e308, Number.MAX_SAFE_INTEGER),
);

export const FIELD_NAMES = [
  'username',
  'password',
  'nickname',
  'email',
  'dept_id',
  'role_ids',
  'status',
  'code',
  'name',
  'permissions',
  'parent_id',
  'leader_id',
  'sort',
  'storage_quota_mb',
  'admin_username',
  'admin_password',
  'tenant_code',
  'captcha_id',
  'captcha',
  'refresh_token',
  'old_password',
  'new_password',
  'username_or_email',
  'token',
  'key',
  'category',
  'form_mode',
  'biz_type',
  'form_schema',
  'node_tree',
  'starters',
  'form',
  'initiator_id',
  'definition_key',
  'definition_id',
  'title',
  'selected_assignees',
  'comment',
  'to_user_id',
  'to',
  'user_ids',
  'metric',
  'service',
  'operator',
  'threshold',
  'duration_seconds',
  'recipient_user_ids',
  'enabled',
  '__proto__',
  'constructor',
];

/** JSON values of every type, nested, with the nasty strings and numbers. */
export const nastyValue = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    nastyString,
    nastyNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.string()), tie('value'), {
      maxKeys: 5,
    }),
  ),
})).value;

/** A definition whose node tree is a chain `depth` approvals long (text: no recursion here). */
export const definitionWithChain = (depth: number) =>
  `{"key":"fuzz-${depth}","name":"Fuzz","form_mode":"flow","form_schema":{"fields":[]},` +
  `"node_tree":{"id":"start","type":"start","name":"S","child":${'{"id":"n","type":"approval","name":"A","assignee":{"type":"users","userIds":[1]},"mode":"or","child":'.repeat(depth)}null${'}'.repeat(depth)}}}`;

/** A body as raw text: objects of known fields, any JSON, deep nesting, and broken JSON. */
export const rawJsonBody = fc.oneof(
  fc
    .dictionary(fc.constantFrom(...FIELD_NAMES), nastyValue, { maxKeys: 8 })
    .map((body) => JSON.stringify(body)),
  nastyValue.map((value) => JSON.stringify(value) ?? 'null'),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  fc.integer({ min: 1, max: 3000 }).map(definitionWithChain),
  fc.constantFrom(
    '{"__proto__":{"admin":true}}',
    '{"constructor":{"prototype":{"x":1}}}',
    '{"name":"a\\u0000b"}',
    '{"name":"\\ud800"}',
    '{"name":1e400}',
    '{"name":',
    '{,}',
    '',
    'null',
    '"text"',
  ),
  fc.string({ maxLength: 200 }),
);

export const bodyBytes = fc.oneof(
  rawJsonBody.map((text) => Buffer.from(text, 'utf8')),
  // Bad encodings: invalid UTF-8, UTF-16 with a BOM.
  fc
    .uint8Array({ maxLength: 64 })
    .map((bytes) =>
      Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('"}')]),
    ),
  fc.constant(Buffer.from('\ufeff{"name":"x"}', 'utf16le')),
  fc.constant(Buffer.from([0xff, 0xfe, 0xfd])),
);

export const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  fc.constantFrom(
    undefined,
    'application/json; charset=utf-8',
    'application/json; charset=utf-16',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    '*/*',
    'application/json, text/plain',
    'nonsense',
  ),
);

/** Percent-encodes every byte of the UTF-8 text (lone surrogates become U+FFFD). */
export const encodeAll = (text: string) =>
  [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

export const pathId = fc.oneof(
  fc.constantFrom('1', '2', '3', '0', '-1', '1.5', '1e3', 'abc', '9007199254740993'),
  fc.constantFrom('99999999999999999999', '%FF%FE', '%00', '%', '%2e%2e', '..', '7'.repeat(150)),
  fc.nat().map(String),
  nastyString.map(encodeAll),
);

export const QUERY_NAMES = [
  'page',
  'page_size',
  'keyword',
  'status',
  'user_id',
  'username',
  'module',
  'method',
  'path',
  'request_id',
  'anonymous',
  'start_time',
  'end_time',
  'days',
  'unread',
  'definition_key',
  'initiator_id',
  'success',
  'login_type',
  'ip',
  'action',
  'target_type',
  'target_id',
  'actor_id',
  'key',
  'parent_id',
  'tenant_id',
  'dept_id',
  'range',
  'metric',
  'kind',
  'rule_id',
];

export const query = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom(...QUERY_NAMES), fc.string({ maxLength: 10 })),
    fc.oneof(nastyString.map(encodeAll), fc.constantFrom('%FF', '%zz', '%', 'a%00b', '1e309')),
  ),
  { maxLength: 5 },
);

export type Caller = 'platformAdmin' | 'tenantAdmin' | 'none';
export const who = fc.constantFrom<Caller>('platformAdmin', 'tenantAdmin', 'none');
