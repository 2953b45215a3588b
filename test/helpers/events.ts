import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { sql } from 'kysely';
import type { TestPlatform } from './platform.js';

/** Every payload published on a platform event's subject, from whichever stream backs it. */
export async function readEvents(
  platform: TestPlatform,
  event: string,
): Promise<Record<string, any>[]> {
  const subject = platform.kernel.stream.subjectOf(event);
  if (platform.kernel.stream.kind === 'table') {
    const rows = await sql<{ payload: Record<string, any> }>`
      SELECT payload FROM stream_messages WHERE subject = ${subject} ORDER BY id`.execute(
      platform.kernel.database.db,
    );
    return rows.rows.map((r) => r.payload);
  }
  const nc = await connect({ servers: platform.settings.nats.url });
  try {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(platform.settings.nats.stream);
    const payloads: Record<string, any>[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const message = await jsm.streams
        .getMessage(platform.settings.nats.stream, { seq })
        .catch(() => null);
      if (message?.subject === subject) payloads.push(message.json());
    }
    return payloads;
  } finally {
    await nc.close();
  }
}

/** Polls until `predicate` finds a matching event (publishing is asynchronous by design). */
export async function waitForEvent(
  platform: TestPlatform,
  event: string,
  predicate: (payload: Record<string, any>) => boolean,
  timeoutMs = 5000,
): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readEvents(platform, event)).find(predicate);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${event} event matched within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
