import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 18321);

/**
 * End-to-end tests drive Debian's Chromium against the platform started as the README says, on
 * embedded defaults (in-memory PGlite so every run starts empty). `npm run e2e` at the root.
 */
export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  webServer: {
    // The README's start command, minus the data directory: a fresh in-memory database.
    command: 'npm start',
    cwd: '..',
    url: `http://127.0.0.1:${PORT}/api/v1/health/ready`,
    timeout: 180_000,
    reuseExistingServer: !process.env.CI,
    env: {
      PORT: String(PORT),
      DATA_DIR: 'memory://',
      LOG_LEVEL: 'warn',
      METRICS_ENABLED: 'false',
      LOGIN_CAPTCHA: 'off',
    },
  },
});
