/**
 * Which real servers this run has, for the tests that need them. `.ci/run`'s real-servers pass
 * sets `REQUIRE_REAL_SERVERS=1`: there a missing URL fails the run at import instead of quietly
 * skipping the tests that prove replicas, JetStream and crash recovery.
 */
export const realServers = {
  database: Boolean(process.env.DATABASE_URL),
  redis: Boolean(process.env.REDIS_URL),
  nats: Boolean(process.env.NATS_URL),
};

export const onRealServers = realServers.database && realServers.redis && realServers.nats;

export const realServersRequired = process.env.REQUIRE_REAL_SERVERS === '1';

if (realServersRequired && !onRealServers) {
  const missing = Object.entries({
    DATABASE_URL: realServers.database,
    REDIS_URL: realServers.redis,
    NATS_URL: realServers.nats,
  })
    .filter(([, set]) => !set)
    .map(([name]) => name);
  throw new Error(
    `REQUIRE_REAL_SERVERS=1 but ${missing.join(', ')} unset: the real-server tests would be skipped`,
  );
}
