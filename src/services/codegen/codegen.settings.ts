import { bool, optionalText } from '../../config/env-fields.js';
import { defineSettings } from '../../config/slice.js';

/** The code generator's settings (`CODEGEN_*`). */
export const codegenSettings = defineSettings({
  env: {
    CODEGEN_WRITE_ENABLED: bool(false),
    /** The project the code generator writes into; empty: the working directory. */
    CODEGEN_OUTPUT_DIR: optionalText,
  },
  shape: (env) => ({
    /** `POST /api/v1/codegen/write` exists only when this is on. */
    writeEnabled: env.CODEGEN_WRITE_ENABLED,
    outputDir: env.CODEGEN_OUTPUT_DIR ?? process.cwd(),
  }),
});

declare module '../../config/settings.js' {
  interface ModuleSettings {
    codegen: ReturnType<typeof codegenSettings.shape>;
  }
}
