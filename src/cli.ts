import { parseArgs } from 'node:util';

/** What one run of `approva` is asked to do. */
export type Invocation =
  | { command: 'help' }
  | { command: 'version' }
  | { command: 'migrate' }
  | { command: 'keys-rotate' }
  | { command: 'serve'; service: string | undefined };

/** A command line the CLI refuses: the message, and whether the help text should follow. */
export interface Refusal {
  error: string;
  withHelp: boolean;
}

/**
 * Reads a command line (`serve --service bpm`, `migrate`, ...) against the service names; never
 * starts anything, so what a container or a process manager will run can be checked before.
 */
export function parseInvocation(argv: string[], services: readonly string[]): Invocation | Refusal {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { service: { type: 'string', short: 's' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (err) {
    return { error: (err as Error).message, withHelp: true };
  }
  const { positionals, values } = parsed;
  const command = values.help ? 'help' : (positionals[0] ?? 'help');
  switch (command) {
    case 'help':
    case 'version':
    case 'migrate':
      return { command };
    case 'keys':
      return positionals[1] === 'rotate'
        ? { command: 'keys-rotate' }
        : {
            error: `unknown keys command "${positionals[1] ?? ''}"; use: keys rotate`,
            withHelp: false,
          };
    case 'serve': {
      const service = values.service;
      if (service !== undefined && service !== 'gateway' && !services.includes(service)) {
        return {
          error: `unknown service "${service}"; one of: gateway, ${services.join(', ')}`,
          withHelp: false,
        };
      }
      return { command: 'serve', service };
    }
    default:
      return { error: `unknown command "${command}"`, withHelp: true };
  }
}
