import { createConnection, createServer, type Socket } from 'node:net';

/**
 * An in-test TCP proxy to `target` (host:port) that can stop passing bytes: `hold()` keeps
 * every connection open but forwards nothing in either direction (a paused or black-holed
 * peer: `CLIENT PAUSE`, a network partition without resets), `release()` delivers what was held
 * and carries on (`listenPort`: a fixed port, for a peer that comes up where a client already
 * tries to reach it). Nothing is dropped, so a protocol stream stays in step, as over real TCP.
 */
export async function startTcpProxy(target: { host: string; port: number }, listenPort = 0) {
  let holding = false;
  const waiting: (() => void)[] = [];
  const sockets = new Set<Socket>();

  const pipe = (from: Socket, to: Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (!holding) {
        to.write(chunk);
        return;
      }
      from.pause();
      waiting.push(() => {
        to.write(chunk);
        from.resume();
      });
    });
  };

  const server = createServer((client) => {
    const upstream = createConnection(target);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  return {
    port,
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const deliver of waiting.splice(0)) deliver();
    },
    async close() {
      holding = false;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
