import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { antdCss } from './vite.antd-css';
import { precompress } from './vite.precompress';

export default defineConfig({
  plugins: [react(), antdCss(), precompress()],
  resolve: {
    // The console validates forms with the engine's own pure rules (same cases as the server).
    alias: { '@engine': fileURLToPath(new URL('../src/services/bpm/engine', import.meta.url)) },
  },
  server: { proxy: { '/api': 'http://localhost:8080' } },
  build: {
    manifest: true,
    // Measured per build in bench/RESULTS.md: the first page must stay under 400 KB gzip.
    reportCompressedSize: true,
  },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/area-texts.setup.ts'],
    // Files share their worker's modules (antd, the i18n texts, the fake server) instead of
    // importing them afresh: 150 s → 20 s here. Each test renders into a fresh document with its
    // own query client; the one fake server (src/test/fakeServer.ts) is set by each test.
    isolate: false,
  },
});
