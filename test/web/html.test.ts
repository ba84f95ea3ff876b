// The console's HTML escaping: every value put into a template is escaped unless it is HTML made by
// the same tag, so markup in stored values can never become markup in a page.
import { describe, expect, test } from 'vitest';
import { escapeHtml, html } from '../../src/web/index.js';

describe('console HTML escaping', () => {
  test('escapeHtml replaces the five characters that matter in bodies and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
    expect(escapeHtml('plain text 123')).toBe('plain text 123');
  });

  test('html escapes interpolated text, numbers and lists, and adds nothing for null, undefined and false', () => {
    const evil = '"><script>alert(1)</script>';
    expect(html`<input value="${evil}">`.text).toBe(
      '<input value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">',
    );
    expect(html`<p>${42} ${['<a>', '<b>']} ${null}${undefined}${false}</p>`.text).toBe(
      '<p>42 &lt;a&gt;&lt;b&gt; </p>',
    );
  });

  test('html keeps nested html as markup and escapes only once', () => {
    const cell = html`<td>${'a & b'}</td>`;
    expect(html`<tr>${cell}${[cell, html`<td>${'<i>'}</td>`]}</tr>`.text).toBe(
      '<tr><td>a &amp; b</td><td>a &amp; b</td><td>&lt;i&gt;</td></tr>',
    );
  });
});
