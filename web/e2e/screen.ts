import { expect, type Page } from '@playwright/test';

/**
 * Nothing on the page is wider than a phone's screen (390 px) unless it scrolls or is clipped
 * inside a box that fits (a wide table), and the page itself does not scroll sideways.
 */
export async function fitsTheScreen(page: Page) {
  await page.waitForLoadState('networkidle');
  const { scrollWidth, innerWidth, wide } = await page.evaluate(() => {
    // The elements sticking out, to say what to fix.
    const out = (e: Element) => e.getBoundingClientRect().right > 390.5;
    // Content scrolled or clipped inside a box that itself fits (a wide table) is fine.
    const clipped = (e: Element) => {
      for (let a = e.parentElement; a; a = a.parentElement) {
        if (a === document.body || a === document.documentElement) return false;
        if (getComputedStyle(a).overflowX !== 'visible' && !out(a)) return true;
      }
      return false;
    };
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => out(e) && !clipped(e))
      .filter((e) => ![...e.children].some(out))
      .slice(0, 5)
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} (right edge ${Math.round(e.getBoundingClientRect().right)} px)`,
      );
    return {
      scrollWidth: document.scrollingElement!.scrollWidth,
      innerWidth: window.innerWidth,
      wide,
    };
  });
  expect(wide, 'elements wider than the screen').toEqual([]);
  expect(innerWidth, 'laid out at the phone width').toBe(390);
  expect(scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(innerWidth);
}
