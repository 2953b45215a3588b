import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';

/** The envelope text of an application code, when an administrator has overridden it. */
export interface ErrorTextLookup {
  messageFor(code: number): string | undefined;
}

export interface ErrorTextsOptions {
  /** Reads every override: `(code, message)` rows. */
  load(): Promise<ReadonlyArray<{ code: number; message: string }>>;
  /** How old the overrides may get (ERROR_TEXT_REFRESH_INTERVAL; default 30 s). */
  refreshMs: number;
  logger: Logger;
}

/**
 * The process's copy of the editable error texts (the system service's `sys_error_texts`): the
 * error handler looks a code up in memory, and a timer reloads the whole table every
 * `refreshMs`, so a change shows on every replica within that time without a query per error.
 * A failed reload keeps the previous copy (the defaults at worst).
 */
export class ErrorTexts implements ErrorTextLookup {
  private overrides = new Map<number, string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly o: ErrorTextsOptions) {}

  messageFor(code: number): string | undefined {
    return this.overrides.get(code);
  }

  async refresh(): Promise<void> {
    try {
      const rows = await this.o.load();
      this.overrides = new Map(rows.map((r) => [Number(r.code), r.message]));
    } catch (err) {
      this.o.logger.warn({ err }, 'error texts not refreshed; keeping the previous copy');
    }
  }

  /** Loads once, then every `refreshMs` (the timer never keeps the process alive). */
  async start(): Promise<void> {
    await this.refresh();
    // At least 100 ms apart: a zero interval would be a hot loop on the database.
    this.timer ??= setInterval(() => void this.refresh(), Math.max(this.o.refreshMs, 100));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** The loader over the system service's table (migration 0026). */
export function errorTextsFromTable(db: Kysely<object>) {
  return async () =>
    (
      await sql<{
        code: number;
        message: string;
      }>`SELECT code, message FROM sys_error_texts`.execute(db)
    ).rows;
}
