import type { z } from 'zod';
import type { CoreEnv } from './core-env.js';

/** The variables of a slice, parsed, beside the platform's core ones (JWT_SECRET, DATA_DIR...). */
export type SliceEnv<Vars extends Record<string, z.ZodType>> = z.output<z.ZodObject<Vars>> &
  CoreEnv;

/**
 * A service's settings: the environment variables it reads (with their defaults) and the shape
 * its code sees as `settings.<service name>`. The module declares it (`ServiceModule.settings`)
 * and adds the shape's type to `ModuleSettings` beside it, so a new service's settings never
 * touch src/config. A variable belongs to one slice or to the core; loading fails on a clash.
 */
export interface SettingsSlice<
  Vars extends Record<string, z.ZodType> = Record<string, z.ZodType>,
  Shape = unknown,
> {
  env: Vars;
  shape(env: SliceEnv<Vars>, source: NodeJS.ProcessEnv): Shape;
  /** The production start-up checks of these variables; features that are off are not checked. */
  productionProblems?(env: SliceEnv<Vars>): string[];
}

/** Declares a slice with its types inferred from its variables. */
export const defineSettings = <Vars extends Record<string, z.ZodType>, Shape>(
  slice: SettingsSlice<Vars, Shape>,
): SettingsSlice<Vars, Shape> => slice;
