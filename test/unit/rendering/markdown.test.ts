import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../src/rendering/markdown.js';

describe('renderMarkdown: the GFM constructs', () => {
  it('renders headings', () => {
    const html = renderMarkdown('# Title\n\n### Section');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<h3>Section</h3>');
  });

  it('renders unordered and ordered lists', () => {
    expect(renderMarkdown('- one\n- two')).toMatch(/<ul>\s*<li>one<\/li>\s*<li>two<\/li>\s*<\/ul>/);
    expect(renderMarkdown('1. first\n2. second')).toMatch(/<ol>\s*<li>first<\/li>\s*<li>second<\/li>\s*<\/ol>/);
    expect(renderMarkdown('3. third\n4. fourth')).toContain('<ol start="3">');
  });

  it('renders GFM task lists as disabled checkboxes', () => {
    const html = renderMarkdown('- [x] done\n- [ ] open');
    expect(html).toMatch(/<li><input checked disabled type="checkbox" \/> done<\/li>/);
    expect(html).toMatch(/<li><input disabled type="checkbox" \/> open<\/li>/);
  });

  it('renders links, with title', () => {
    expect(renderMarkdown('[site](https://example.com "Example")')).toContain(
      '<a href="https://example.com" title="Example">site</a>',
    );
    expect(renderMarkdown('[mail](mailto:a@example.com)')).toContain('<a href="mailto:a@example.com">mail</a>');
    expect(renderMarkdown('[rel](/pages/about)')).toContain('<a href="/pages/about">rel</a>');
  });

  it('renders bold, emphasis and strikethrough', () => {
    const html = renderMarkdown('**bold** *em* ~~gone~~');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<em>em</em>');
    expect(html).toContain('<del>gone</del>');
  });

  it('renders images', () => {
    expect(renderMarkdown('![A cat](https://example.com/cat.png "Cat")')).toContain(
      '<img src="https://example.com/cat.png" alt="A cat" title="Cat" />',
    );
  });

  it('renders quotes', () => {
    expect(renderMarkdown('> quoted words')).toMatch(/<blockquote>\s*<p>quoted words<\/p>\s*<\/blockquote>/);
  });

  it('renders fenced code blocks, escaping their content', () => {
    const html = renderMarkdown('```js\nif (a < b) alert("x");\n```');
    expect(html).toContain('<pre><code class="language-js">if (a &lt; b) alert("x");\n</code></pre>');
  });

  it('renders a table with a header row, the --- separator, alignment and <br> in a cell', () => {
    const html = renderMarkdown('| Name | Notes |\n| :--- | :---: |\n| Ann | line one<br>line two |');
    expect(html).toMatch(/<thead>\s*<tr>\s*<th align="left">Name<\/th>\s*<th align="center">Notes<\/th>/);
    expect(html).toMatch(
      /<tbody>\s*<tr>\s*<td align="left">Ann<\/td>\s*<td align="center">line one<br \/>line two<\/td>/,
    );
  });

  it('makes no table without the separator row', () => {
    const html = renderMarkdown('| Name | Notes |\n| Ann | x |');
    expect(html).not.toContain('<table>');
  });
});

describe('renderMarkdown: sanitizing', () => {
  it('drops <script> with its content', () => {
    const html = renderMarkdown('before\n\n<script>alert(1)</script>\n\nafter');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('alert(1)');
    expect(html).toContain('before');
    expect(html).toContain('after');
  });

  it.each([
    '[x](javascript:alert(1))',
    '[x](JaVaScRiPt:alert(1))',
    '<a href="javascript:alert(1)">x</a>',
    '<a href="&#106;avascript:alert(1)">x</a>',
    '<a href="  javascript:alert(1)">x</a>',
  ])('yields no javascript: href for %s', (md) => {
    const html = renderMarkdown(md);
    expect(html).not.toMatch(/javascript/i);
    expect(html).toContain('>x</a>');
  });

  it('removes event handlers: <img src=x onerror=alert(1)> loses onerror', () => {
    const html = renderMarkdown('<img src=x onerror=alert(1)>');
    expect(html).toContain('<img src="x" />');
    expect(html).not.toMatch(/onerror/i);
  });

  it('keeps only http(s) image sources', () => {
    expect(renderMarkdown('![d](data:image/png;base64,AAAA)')).toContain('<img alt="d" />');
    expect(renderMarkdown('<img src="javascript:alert(1)">')).not.toMatch(/javascript/i);
  });

  it('removes iframes, styles, forms and style attributes', () => {
    const html = renderMarkdown(
      '<iframe src="https://evil.example"></iframe><style>p{color:red}</style><form><input type="text" value="v"></form><p style="color:red" class="x" id="y">p</p>',
    );
    expect(html).not.toMatch(/<iframe|<style|<form|<input|style=|class=|id=/i);
    expect(html).toContain('<p>p</p>');
  });
});
