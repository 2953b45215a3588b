/** The e2e servers' ports: the platform on E2E_PORT, the captcha project's platform next to it. */
export const PORT = Number(process.env.E2E_PORT ?? 18321);
export const CAPTCHA_PORT = Number(process.env.E2E_CAPTCHA_PORT ?? PORT + 1);
/** The captcha platform's test-only listener that reads answers (e2e/captcha-platform.ts). */
export const CAPTCHA_ANSWER_PORT = CAPTCHA_PORT + 1;
/** The monitor spec's own platform, stopped and started again within the spec. */
export const MONITOR_PORT = Number(process.env.E2E_MONITOR_PORT ?? PORT + 5);
