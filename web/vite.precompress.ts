import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** What is worth compressing: text assets; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every text asset of the build, at the
 * highest levels (paid once at build time, not per request): the gateway serves them by
 * Accept-Encoding (@fastify/static's preCompressed), so the console's scripts travel compressed
 * without compressing anything per request.
 */
export function precompress(): Plugin {
  return {
    name: 'approva-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      const files = Object.keys(bundle).filter((f) => COMPRESSIBLE.test(f));
      await Promise.all(
        files.map(async (file) => {
          const path = join(dir, file);
          const source = await readFile(path);
          if (source.length < MIN_BYTES) return;
          const [br, gzipped] = await Promise.all([
            brotli(source, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
              },
            }),
            gz(source, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          await writeFile(`${path}.br`, br);
          await writeFile(`${path}.gz`, gzipped);
        }),
      );
    },
  };
}
