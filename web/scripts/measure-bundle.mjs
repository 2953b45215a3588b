/**
 * Prints the gzip size of the JavaScript the first page loads: the entry, every chunk it imports
 * statically, and the sign-in route's chunk with its static imports (what a visitor who is not
 * signed in downloads before the page shows). bench/RESULTS.md records the figure.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));
const LIMIT = 400 * 1024;

const seen = new Set();
function collect(key) {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return;
  seen.add(key);
  for (const dep of chunk.imports ?? []) collect(dep);
}
collect('index.html');
collect('src/routes/auth/login/Login.tsx');

let total = 0;
for (const key of seen) {
  const file = manifest[key].file;
  if (!file.endsWith('.js')) continue;
  total += gzipSync(readFileSync(new URL(file, dist))).length;
}
const kb = (total / 1024).toFixed(1);
console.log(
  `first page (sign-in) JavaScript: ${kb} KB gzip over ${seen.size} chunks (limit 400 KB)`,
);
if (total > LIMIT) {
  console.error('the first page is over the 400 KB budget');
  process.exit(1);
}
