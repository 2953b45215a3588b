/**
 * What the system service needs from others, fitted in src/start.ts: never their tables.
 * Nothing yet.
 */
export type SystemPorts = Record<string, never>;
