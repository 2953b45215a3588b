import { readdirSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

/** The services under src/services (their folders); each may import only itself, src/platform and src/config. */
const SERVICES = readdirSync(new URL('src/services', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'data/',
      'coverage/',
      'web/dist/',
      'web/src/api/schema.d.ts',
      'web/test-results/',
      'web/.prerender/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    // The approval engine is pure: plain data in and out, no HTTP, no database, no clock.
    files: ['src/services/bpm/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/platform/http/*', '**/platform/db/*'], message: 'the engine is pure' },
            {
              group: ['fastify', 'kysely', 'pg', '@electric-sql/*'],
              message: 'the engine is pure',
            },
          ],
        },
      ],
    },
  },
  {
    // Source files stay readable in one sitting (tests may be longer).
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    // Services meet only in src/start.ts (the composition root), through ports: a service never
    // imports another service's files, and the shared kernel imports no service. An import of
    // anything outside these elements (src/start.ts from the kernel, say) is unknown: an error.
    files: ['src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      // Without a resolver that knows `.ts`, no import resolves and nothing is reported; ours
      // also maps the `./x.js` of ESM TypeScript to `./x.ts`.
      'import/resolver': {
        [fileURLToPath(new URL('scripts/eslint-ts-resolver.cjs', import.meta.url))]: {
          extensions: ['.ts', '.js'],
        },
      },
      'boundaries/elements': [
        ...SERVICES.map((name) => ({ type: `service-${name}`, pattern: `src/services/${name}` })),
        { type: 'platform', pattern: 'src/platform' },
        { type: 'config', pattern: 'src/config' },
      ],
    },
    rules: {
      // An import that resolves to no known element (a typo, or a resolver gap) is an error too.
      'boundaries/no-unknown-dependencies': 'error',
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            ...SERVICES.map((name) => ({
              from: { element: { type: `service-${name}` } },
              disallow: {
                to: {
                  element: {
                    types: { anyOf: SERVICES.filter((s) => s !== name).map((s) => `service-${s}`) },
                  },
                },
              },
            })),
            {
              from: { element: { types: { anyOf: ['platform', 'config'] } } },
              disallow: {
                to: {
                  element: {
                    types: { anyOf: SERVICES.map((s) => `service-${s}`) },
                  },
                },
              },
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', exports: 'writable', module: 'writable' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['bench/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // The console's build and browser-test scripts run on Node.
    files: ['web/scripts/**', 'web/e2e/**', 'web/playwright.config.ts'],
    languageOptions: { globals: { URL: 'readonly', console: 'readonly', process: 'readonly' } },
    rules: { 'no-console': 'off' },
  },
  {
    // Tests read loosely typed JSON response bodies.
    files: ['test/**', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
