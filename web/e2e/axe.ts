import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Serious and critical violations, one line each, so a failure says what and where. Measured
 * once the page is still (colours halfway through a fade-in are not what a reader sees); with
 * `within`, only that part (an open dialog: the page behind its mask is out of use).
 */
export async function audit(page: Page, within?: string, rules?: string[]) {
  await settled(page);
  const builder = new AxeBuilder({ page });
  if (within) builder.include(within);
  if (rules) builder.withRules(rules);
  const result = await builder.analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}; ${v.nodes[0]?.failureSummary ?? ''}`,
    );
}

/** Loaded, and every finite animation or transition (a fade, the menu folding) has ended. */
export async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
}

/** The rules whose outcome depends on colours: all a theme changes. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** Relative brightness (0-1) of the page's ground: the layout's background, else the body's. */
function groundBrightness(page: Page) {
  return page.evaluate(() => {
    const ground = document.querySelector('.ant-layout') ?? document.body;
    const channels = getComputedStyle(ground).backgroundColor.match(/[\d.]+/g) ?? [];
    const [r = 255, g = 255, b = 255] = channels.map(Number);
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  });
}

/**
 * `audit` in both themes, on the page as it stands (an open drawer or dialog stays open): every
 * rule in the light theme, then the colour rules in the dark one, switched in place through the
 * system preference, which the console follows while no theme was chosen in it. The page must
 * be in the light theme with no saved choice (a fresh context). Dark findings are marked so.
 */
export async function auditThemes(page: Page, within?: string) {
  const light = await audit(page, within);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect
    .poll(() => groundBrightness(page), { message: 'dark theme shown' })
    .toBeLessThan(0.2);
  const dark = await audit(page, within, COLOUR_RULES);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect
    .poll(() => groundBrightness(page), { message: 'light theme shown' })
    .toBeGreaterThan(0.8);
  return [...light, ...dark.map((violation) => `dark: ${violation}`)];
}
