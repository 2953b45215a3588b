import { describe, expect, it } from 'vitest';
import { escapeHtml, placeholdersOf, renderText } from './render.js';

describe('template rendering', () => {
  it('fills placeholders, spaces inside the braces allowed, missing values empty', () => {
    expect(renderText('Hi {{ name }}, {{name}}{{gone}}!', { name: 'Ann' }, { html: false })).toBe(
      'Hi Ann, Ann!',
    );
  });

  it('escapes values in HTML templates only', () => {
    const params = { t: '<b>"x" & \'y\'</b>' };
    expect(renderText('<p>{{t}}</p>', params, { html: true })).toBe(
      '<p>&lt;b&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/b&gt;</p>',
    );
    expect(renderText('{{t}}', params, { html: false })).toBe(params.t);
    expect(escapeHtml('a&b')).toBe('a&amp;b');
  });

  it('lists the placeholders a text uses and stays linear on hostile input', () => {
    expect(placeholdersOf('{{a}} {{ b }} {{a}} {c} {{')).toEqual(['a', 'b', 'a']);
    const hostile = '{{'.repeat(50_000) + ' '.repeat(50_000);
    const started = Date.now();
    expect(placeholdersOf(hostile)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(500);
  });
});
