import { defineConfig } from '@playwright/test';
import { CAPTCHA_ANSWER_PORT, CAPTCHA_PORT, PORT } from './e2e/ports';

const serverEnv = {
  DATA_DIR: 'memory://',
  LOG_LEVEL: 'warn',
  METRICS_ENABLED: 'false',
  // Error-text overrides show within 2 s rather than the default 30 s (system.spec.ts waits for
  // a changed text to reach the services).
  ERROR_TEXT_REFRESH_INTERVAL: '2s',
};

/**
 * End-to-end tests drive Debian's Chromium against the platform started as the README says, on
 * embedded defaults (in-memory PGlite so every run starts empty). `npm run e2e` at the root.
 * Two projects: `default` against the platform with LOGIN_CAPTCHA=off (so the many sign-ins of
 * the stories never meet a captcha), and `captcha` (e2e/captcha.spec.ts) against a second
 * platform on E2E_CAPTCHA_PORT (default E2E_PORT + 1) with the default LOGIN_CAPTCHA.
 */
export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two spec files at a time, each in its own browser, against the same platform: the specs make
  // their own users, roles and requests (unique names) and never wait for a count they do not
  // own. Tests within a file run in order.
  fullyParallel: false,
  workers: 2,
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
  projects: [
    { name: 'default', testIgnore: /captcha\.spec\.ts$/ },
    {
      name: 'captcha',
      testMatch: /captcha\.spec\.ts$/,
      use: { baseURL: `http://127.0.0.1:${CAPTCHA_PORT}` },
    },
  ],
  // Started one after the other: the first builds the server and the console the second uses.
  webServer: [
    {
      // The README's start command, minus the data directory: a fresh in-memory database.
      command: 'npm start',
      cwd: '..',
      url: `http://127.0.0.1:${PORT}/api/v1/health/ready`,
      timeout: 180_000,
      reuseExistingServer: !process.env.CI,
      env: { ...serverEnv, PORT: String(PORT), LOGIN_CAPTCHA: 'off' },
    },
    {
      command: 'npx tsx web/e2e/captcha-platform.ts',
      cwd: '..',
      url: `http://127.0.0.1:${CAPTCHA_PORT}/api/v1/health/ready`,
      timeout: 180_000,
      reuseExistingServer: !process.env.CI,
      env: {
        ...serverEnv,
        PORT: String(CAPTCHA_PORT),
        LOGIN_CAPTCHA: 'after_failures',
        CAPTCHA_ANSWER_PORT: String(CAPTCHA_ANSWER_PORT),
      },
    },
  ],
});
