import type { FastifyReply } from 'fastify';
import type { HttpApp } from './server.js';

export type ReadinessCheck = () => Promise<unknown>;

/** `GET /health/ready`: 200 when every check passes within 3 s, else 503 naming the failures. */
export function registerReadiness(
  app: HttpApp,
  checks: Record<string, ReadinessCheck>,
  paths: string[] = ['/health/ready'],
): void {
  for (const path of paths) app.get(path, { schema: { hide: true } }, ready);

  async function ready(_request: unknown, reply: FastifyReply) {
    const failed: string[] = [];
    await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
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
    );
    if (failed.length > 0) {
      return reply.status(503).send({ code: 50300, message: 'not ready', data: { failed } });
    }
    return { code: 200, message: 'success', data: { status: 'ready' } };
  }
}
