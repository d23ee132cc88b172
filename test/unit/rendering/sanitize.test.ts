import { describe, expect, it } from 'vitest';
import { sanitizeRichText } from '../../../src/rendering/sanitize.js';

describe('sanitizeRichText', () => {
  it('keeps formatting HTML as HTML', () => {
    const html =
      '<p>Hi <b>bold</b> <i>it</i> <u>under</u> <s>struck</s> H<sub>2</sub>O x<sup>2</sup> <mark>m</mark> <small>s</small></p>';
    expect(sanitizeRichText(html)).toBe(html);
  });

  it('keeps the tags Markdown produces', () => {
    const html =
      '<h2>T</h2><ul><li><a href="https://example.com" title="t">l</a></li></ul><blockquote><p><strong>s</strong> <em>e</em> <del>d</del></p></blockquote>';
    expect(sanitizeRichText(html)).toBe(html);
  });

  it('removes scripts, event handlers and style attributes', () => {
    const html = sanitizeRichText(
      '<p onclick="alert(1)" style="color:red">text<script>alert(2)</script></p><img src="https://example.com/a.png" onerror="alert(3)">',
    );
    expect(html).toBe('<p>text</p><img src="https://example.com/a.png" />');
  });

  it('removes javascript: links and non-http image sources', () => {
    expect(sanitizeRichText('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeRichText('<img src="data:image/svg+xml;base64,AAAA" alt="a">')).toBe('<img alt="a" />');
    expect(sanitizeRichText('<a href="ftp://example.com/f">f</a>')).toBe('<a>f</a>');
  });

  it('keeps only disabled checkboxes of all inputs', () => {
    expect(sanitizeRichText('<input type="checkbox" checked>')).toBe('<input type="checkbox" checked disabled />');
    expect(sanitizeRichText('<input type="text" value="v"><input>')).toBe('');
  });

  it('removes tags outside the policy but keeps their text', () => {
    expect(
      sanitizeRichText('<div><span class="x">kept</span></div><iframe src="https://e.example">gone</iframe>'),
    ).toBe('kept');
  });
});
