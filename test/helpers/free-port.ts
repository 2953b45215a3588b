import { createServer } from 'node:net';

// Ports a test starts a process on later. They are drawn below Linux's ephemeral range
// (32768 and up): a port taken from there with listen(0) and closed can be picked by any
// outgoing connection (to PostgreSQL, Redis, NATS) before the process binds it, which fails
// the start with EADDRINUSE. Below that range only another listener can hold a port, and the
// probe sees it.
const FIRST = 20_000;
const SPAN = 12_000;

function probe(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

// Handed out already: a port drawn for one process is free until that process binds it, so
// the probe alone would give it again to the next (two of a topology's dozen processes on one
// port, CI saw EADDRINUSE).
const given = new Set<number>();

export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = FIRST + Math.floor(Math.random() * SPAN);
    if (given.has(port)) continue;
    if (await probe(port)) {
      given.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${FIRST} and ${FIRST + SPAN}`);
}
