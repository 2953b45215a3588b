import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

/** antd's static stylesheet, less the token blocks that are not the console's (see below). */
const ALL_CSS = 'virtual:antd.css';
/** The signed-out pages' share of it. */
const SIGNED_OUT_CSS = 'virtual:antd-signed-out.css';

/**
 * The antd components the signed-out pages (sign-in, forgot and reset password, the OAuth
 * callback, the loading spinner) render, by the word after `ant-` in their class names; with
 * the pieces they bring along: the App's message and notification, Form.Item's tooltip, the
 * button's wave, the motion classes, and Row/Col without their spans (Form.Item's grid).
 */
const SIGNED_OUT = new Set([
  'alert',
  'app',
  'btn',
  'card',
  'col',
  'divider',
  'fade',
  'flex',
  'form',
  'input',
  'message',
  'move',
  'notification',
  'otp',
  'result',
  'row',
  'segmented',
  'slide',
  'space',
  'spin',
  'tooltip',
  'typography',
  'wave',
  'zoom',
]);

/** The grid's span, offset, order... classes (`ant-col-12`, `ant-col-md-push-3`): 50 KB. */
const GRID_SPAN = /\.ant-col-[a-z-]*\d/;

/** Top-level rules and at-rules of a stylesheet, in order (strings and comments skipped). */
function topLevelRules(css: string): string[] {
  const rules: string[] = [];
  let depth = 0;
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < css.length; i++) {
    const c = css[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '/' && css[i + 1] === '*') i = css.indexOf('*/', i + 2) + 1;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      rules.push(css.slice(start, i + 1));
      start = i + 1;
    } else if (c === ';' && depth === 0) {
      rules.push(css.slice(start, i + 1));
      start = i + 1;
    }
  }
  return rules;
}

/**
 * The blocks of antd's default tokens, under the theme classes its own build was rendered with
 * (`.css-var-_R_0_`): the console sets its tokens at run time, under its ConfigProvider's class,
 * which is that same `css-var-_R_0_` on the hydrated sign-in page (React's first server id); the
 * default blocks, loaded later, would win over the console's colours.
 */
function defaultTokens(rule: string): boolean {
  return rule.trimStart().startsWith('.css-var-');
}

/**
 * Whether a rule of antd's stylesheet belongs to the signed-out pages: by the first antd class
 * it names (an at-rule by the first in its body); keyframes and the global rules (links, icons,
 * cssinjs's cache marker) always.
 */
function signedOut(rule: string): boolean {
  const head = rule.slice(0, rule.indexOf('{')).trim();
  if (head.startsWith('@keyframes')) return true;
  const component = (head.startsWith('@') ? rule : head).match(/\.ant-([a-z]+)/)?.[1];
  if (!component) return true;
  if (component === 'col' && GRID_SPAN.test(rule)) return false;
  return SIGNED_OUT.has(component);
}

/**
 * antd's static stylesheet (`antd/dist/antd.css`, 1 MB, for zero-runtime mode) without its
 * default token blocks: `virtual:antd.css`, the whole of it, which the signed-in layout
 * imports, and `virtual:antd-signed-out.css`, the rules the signed-out pages use, in the file's
 * order: about a sixth, so the sign-in page's render-blocking stylesheet is small. The whole
 * file's copies of these rules come later in the same order, so the cascade is the whole file's.
 */
export function antdCss(): Plugin {
  return {
    name: 'approva-antd-css',
    resolveId(id) {
      return id === ALL_CSS || id === SIGNED_OUT_CSS ? id : undefined;
    },
    load(id) {
      if (id !== ALL_CSS && id !== SIGNED_OUT_CSS) return undefined;
      const file = createRequire(import.meta.url).resolve('antd/dist/antd.css');
      this.addWatchFile(file);
      const rules = topLevelRules(readFileSync(file, 'utf8')).filter((r) => !defaultTokens(r));
      return (id === SIGNED_OUT_CSS ? rules.filter(signedOut) : rules).join('');
    },
  };
}
