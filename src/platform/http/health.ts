import type { FastifyReply } from 'fastify';
import type { HttpApp } from './server.js';

export type ReadinessCheck = () => Promise<unknown>;

/** Facts readiness reports beside its verdict (a relay's backlog), never deciding it. */
export type ReadinessReport = () => Promise<Record<string, unknown>>;

/**
 * `GET /health/ready`: 200 when every check passes within 3 s, else 503 naming the failures.
 * `report` adds facts to either answer (what an operator needs to see while it is still ready:
 * a backlog that grows while the broker is down); one that fails or is slow is left out.
 */
export function registerReadiness(
  app: HttpApp,
  checks: Record<string, ReadinessCheck>,
  paths: string[] = ['/health/ready'],
  report?: ReadinessReport,
): void {
  for (const path of paths) app.get(path, { schema: { hide: true } }, ready);

  async function ready(_request: unknown, reply: FastifyReply) {
    const failed: string[] = [];
    const [facts] = await Promise.all([
      report ? withinTimeout(report()).catch(() => ({})) : {},
      ...Object.entries(checks).map(async ([name, check]) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            check(),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error('timeout')), 3000);
            }),
          ]);
        } catch {
          failed.push(name);
        } finally {
          clearTimeout(timer);
        }
      }),
    ]);
    if (failed.length > 0) {
      return reply
        .status(503)
        .send({ code: 50300, message: 'not ready', data: { failed, ...facts } });
    }
    return { code: 200, message: 'success', data: { status: 'ready', ...facts } };
  }
}

function withinTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), 3000);
    }),
  ]).finally(() => clearTimeout(timer));
}
