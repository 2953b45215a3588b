/**
 * Builds dist/login.html, the sign-in page that shows before the console's script arrives: the
 * page rendered ahead (src/prerender.tsx, built by `vite build --ssr` into .prerender/) in each
 * language and theme, as templates; a small blocking script puts the visitor's variant on screen
 * before the first paint (the page's policy allows no inline script) and then loads the
 * console's script, which hydrates the page (main.tsx). The gateway answers /login with this
 * file (src/services/gateway/console.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

// antd, React and the rest read it when loaded: the production build's class names and markup.
process.env.NODE_ENV = 'production';
const dist = new URL('../dist/', import.meta.url);
const built = new URL('../.prerender/prerender.js', import.meta.url);
const { prerender } = await import(built.href);

/** A file and its brotli and gzip copies, as vite.precompress.ts writes the rest of the build. */
function writeCompressed(name, text) {
  const url = new URL(name, dist);
  writeFileSync(url, text);
  writeFileSync(
    new URL(`${name}.br`, dist),
    brotliCompressSync(text, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
    }),
  );
  writeFileSync(
    new URL(`${name}.gz`, dist),
    gzipSync(text, { level: constants.Z_BEST_COMPRESSION }),
  );
}

const LANGUAGES = ['en', 'zh-CN'];
const MODES = ['light', 'dark'];

// The markup is the same in both themes (antd's colours are CSS variables): one template per
// language, one set of styles per theme.
const markup = new Map();
const styles = new Map();
for (const mode of MODES) {
  for (const language of LANGUAGES) {
    const page = await prerender('/login', language, mode);
    if (/<script/i.test(page.styles))
      throw new Error('antd extracted a script: the page allows none');
    if (markup.has(language) && markup.get(language) !== page.markup) {
      throw new Error(`the ${language} sign-in page differs between the themes`);
    }
    markup.set(language, page.markup);
    styles.set(mode, page.styles);
  }
}
const templates = [
  ...[...markup].map(
    ([language, html]) => `<template id="prerendered-${language}">${html}</template>`,
  ),
  ...[...styles].map(
    ([mode, css]) => `<template id="prerendered-styles-${mode}">${css}</template>`,
  ),
];

// The console's script as index.html loads it (entry and preloads), and the sign-in page's own
// chunks with it rather than after the entry has run.
const index = readFileSync(new URL('index.html', dist), 'utf8');
const SCRIPT_TAGS = /\s*<(?:script type="module"[^>]*><\/script>|link rel="modulepreload"[^>]*>)/g;
const entry = index.match(/<script type="module"[^>]*src="([^"]+)"/)?.[1];
if (!entry) throw new Error('index.html loads no module');
const preload = new Set(
  [...index.matchAll(/rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]),
);
const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));
(function collect(key) {
  const chunk = manifest[key];
  if (!chunk || preload.has(`/${chunk.file}`)) return;
  preload.add(`/${chunk.file}`);
  for (const dep of chunk.imports ?? []) collect(dep);
})('src/routes/auth/login/Login.tsx');

/**
 * Puts the visitor's variant in #root and its styles in <head>, by the rules of
 * src/i18n/index.ts (saved language, else the browser's) and src/theme.ts (saved theme, else
 * the system's); anything amiss leaves #root empty, and main.tsx renders the page itself. Then,
 * once the page is painted, the console's script: the page needs none of it to show, and on a
 * slow network it would share the bandwidth (and on a slow phone the main thread) with what the
 * first paint waits for.
 */
const CHOOSE = `(function () {
  try {
    var language = localStorage.getItem('approva.language');
    if (language !== 'en' && language !== 'zh-CN')
      language = navigator.language.toLowerCase().indexOf('zh') === 0 ? 'zh-CN' : 'en';
    var mode = localStorage.getItem('approva.theme');
    if (mode !== 'light' && mode !== 'dark')
      mode = window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    var styles = document.getElementById('prerendered-styles-' + mode);
    var page = document.getElementById('prerendered-' + language);
    document.documentElement.lang = language;
    document.head.appendChild(styles.content.cloneNode(true));
    document.getElementById('root').appendChild(page.content.cloneNode(true));
  } catch (e) {}
  // A sign-in sent before the script has taken the page over: never the browser's own form
  // submission (the console signs in through its API); Login.tsx sends it once it can.
  var early = { submitted: false };
  function hold(event) {
    event.preventDefault();
    early.submitted = true;
  }
  document.addEventListener('submit', hold, true);
  early.takeOver = function () {
    document.removeEventListener('submit', hold, true);
    return early.submitted;
  };
  window.approvaPrerendered = early;
  function load() {
    ${JSON.stringify([...preload])}.forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    });
    var script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = ${JSON.stringify(entry)};
    document.head.appendChild(script);
  }
  // After the next frame is painted; a hidden tab paints none, so it loads at once.
  if (document.visibilityState === 'hidden') load();
  else requestAnimationFrame(function () { setTimeout(load, 0); });
})();
`;
const hash = createHash('sha256').update(CHOOSE).digest('base64url').slice(0, 8);
const chooser = `assets/choose-variant-${hash}.js`;
writeCompressed(chooser, CHOOSE);

const html = index
  .replace(SCRIPT_TAGS, '')
  .replace(
    '<div id="root"></div>',
    `<div id="root"></div>\n    ${templates.join('\n    ')}\n    <script src="/${chooser}"></script>`,
  );
if (!html.includes(chooser)) throw new Error('index.html has no <div id="root"></div>');
writeCompressed('login.html', html);
rmSync(new URL('../.prerender/', import.meta.url), { recursive: true, force: true });
console.log(
  `login.html: ${(html.length / 1024).toFixed(1)} KB, ${markup.size} languages, ${styles.size} themes`,
);
