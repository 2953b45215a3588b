import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export type GeoFound = { country: string; region: string; city: string } | null;

// fast-geoip opens and parses a 49 KB JSON file for every address it has not seen: about half a
// millisecond of the event loop each, which in all-in-one mode is the gateway's event loop too.
// The worker does the lookups; the main thread only posts addresses and receives answers.
// CommonJS source evaluated in the worker, with the package's resolved path: it runs the same
// under tsx, vitest and the built dist/.
const workerSource = (fastGeoipPath: string) => `
const { parentPort } = require('node:worker_threads');
const geoip = require(${JSON.stringify(fastGeoipPath)});
parentPort.on('message', ({ id, ip }) => {
  const answer = (found) => parentPort.postMessage({ id, found });
  geoip.lookup(ip).then(
    (found) => answer(found && { country: found.country, region: found.region, city: found.city }),
    () => answer(null),
  );
});`;

interface RunningWorker {
  worker: Worker;
  pending: Map<number, (found: GeoFound) => void>;
}

/**
 * fast-geoip's `lookup` in a worker thread, started on first use and again after a crash (the
 * lookups in flight then answer null: the location is unknown, the login log is still stored).
 * The worker is unref'd: it never keeps the process alive.
 */
export function workerGeoLookup(size = 2): (ip: string) => Promise<GeoFound> {
  const source = workerSource(createRequire(import.meta.url).resolve('fast-geoip'));
  const workers: Array<RunningWorker | undefined> = new Array(size);
  let nextId = 0;

  const start = (slot: number): RunningWorker => {
    const running: RunningWorker = {
      worker: new Worker(source, { eval: true }),
      pending: new Map(),
    };
    running.worker.unref();
    running.worker.on('message', ({ id, found }: { id: number; found: GeoFound }) => {
      running.pending.get(id)?.(found);
      running.pending.delete(id);
    });
    const fail = () => {
      if (workers[slot] === running) workers[slot] = undefined;
      for (const resolve of running.pending.values()) resolve(null);
      running.pending.clear();
    };
    running.worker.on('error', fail);
    running.worker.on('exit', fail);
    return running;
  };

  return (ip) =>
    new Promise((resolve) => {
      const id = nextId++;
      const slot = id % size;
      const running = (workers[slot] ??= start(slot));
      running.pending.set(id, resolve);
      running.worker.postMessage({ id, ip });
    });
}
