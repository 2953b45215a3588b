import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Serious and critical violations, one line each, so a failure says what and where. Measured
 * once the page is still (colours halfway through a fade-in are not what a reader sees); with
 * `within`, only that part (an open dialog: the page behind its mask is out of use).
 */
export async function audit(page: Page, within?: string) {
  await settled(page);
  const builder = new AxeBuilder({ page });
  if (within) builder.include(within);
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
