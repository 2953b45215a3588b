/**
 * Failpoints for fault tests (RELIABILITY.md): `FAILPOINT=name:action[,name:action]` makes the
 * named point in the code crash the process (`sigkill`), stall (`delay:<ms>`) or fail
 * (`error`), so a test can put a crash exactly between two steps (a commit and its dispatch, a
 * receiver's 2xx and the row marked delivered). Refused in production by the start-up checks;
 * unset, every point is a no-op.
 */

/** The points the code declares. */
export const FAILPOINT_NAMES = [
  'after_commit_before_dispatch',
  'after_2xx_before_mark',
  'after_audit_write',
] as const;

export type FailpointName = (typeof FAILPOINT_NAMES)[number];

type Action = { kind: 'sigkill' } | { kind: 'delay'; ms: number } | { kind: 'error' };

/** The process's armed failpoints; `hit` at a point runs its action, if armed. */
export class Failpoints {
  private readonly armed: Map<FailpointName, Action>;

  /**
   * `spec`: FAILPOINT's value. Throws naming the problem on an unknown point or action, so a
   * mistyped test setting fails the start instead of silently testing nothing.
   */
  constructor(
    spec: string | undefined,
    private readonly kill: () => void = () => process.kill(process.pid, 'SIGKILL'),
  ) {
    this.armed = parse(spec ?? '');
  }

  /** Runs the action armed at `name`: kills, waits, or throws; nothing when unarmed. */
  async hit(name: FailpointName): Promise<void> {
    const action = this.armed.get(name);
    if (!action) return;
    if (action.kind === 'sigkill') this.kill();
    else if (action.kind === 'delay') await new Promise((r) => setTimeout(r, action.ms));
    else throw new Error(`failpoint ${name}`);
  }
}

function parse(spec: string): Map<FailpointName, Action> {
  const armed = new Map<FailpointName, Action>();
  for (const part of spec.split(',').map((p) => p.trim())) {
    if (part === '') continue;
    const [name, action, extra] = part.split(':');
    if (!FAILPOINT_NAMES.includes(name as FailpointName)) {
      throw new Error(`FAILPOINT: unknown point "${name}" (one of ${FAILPOINT_NAMES.join(', ')})`);
    }
    armed.set(name as FailpointName, actionOf(action, extra, part));
  }
  return armed;
}

function actionOf(action: string | undefined, extra: string | undefined, part: string): Action {
  if (action === 'sigkill' && extra === undefined) return { kind: 'sigkill' };
  if (action === 'error' && extra === undefined) return { kind: 'error' };
  if (action === 'delay' && extra !== undefined && /^\d+$/.test(extra)) {
    return { kind: 'delay', ms: Number(extra) };
  }
  throw new Error(`FAILPOINT: "${part}" needs an action: sigkill, delay:<ms> or error`);
}
