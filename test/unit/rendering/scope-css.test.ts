import { describe, expect, it } from 'vitest';
import { scopeCss, ScopedCss, wrapInstance, wrapperLength } from '../../../src/rendering/scope-css.js';

const S = ':where([data-pb-rev="7"])';

describe('scopeCss: a revision CSS applies to its own instances alone', () => {
  it('puts the scope before every selector of a list, keeping the declarations', () => {
    expect(scopeCss('.hero, h1 > a:hover { color: red }', 7)).toBe(`${S} .hero, ${S} h1 > a:hover { color: red }`);
  });

  it('scopes rules inside @media, @supports and @layer, not nested rules nor keyframe steps', () => {
    const css = scopeCss(
      '@media (min-width: 10px) { .a { color: red } } @supports (display:grid) { .b { x: y } } .c { & .d { e: f } }',
      7,
    );
    expect(css).toContain(`@media (min-width: 10px) { ${S} .a { color: red } }`);
    expect(css).toContain(`${S} .b`);
    expect(css).toContain(`${S} .c { & .d { e: f } }`);
    expect(css).not.toContain(`${S} & .d`);
  });

  it('keeps the document compounds first: body, html and :root rules reach the instance', () => {
    expect(scopeCss('body.dark .x { a: b }', 7)).toBe(`body.dark ${S} .x { a: b }`);
    expect(scopeCss('html body p { a: b }', 7)).toBe(`html body ${S} p { a: b }`);
    expect(scopeCss(':root { --c: red }', 7)).toBe(`:root ${S} { --c: red }`);
  });

  it('renames its keyframes, and the animations of this CSS that name them', () => {
    const css = scopeCss('@keyframes fade { from { opacity: 0 } } .a { animation: fade 1s ease, spin 2s }', 7);
    expect(css).toContain('@keyframes fade-pb-r7 { from { opacity: 0 } }');
    expect(css).toContain('animation: fade-pb-r7 1s ease, spin 2s');
    expect(css).not.toContain(`${S} from`);
  });

  it('leaves @font-face alone, and CSS that does not parse out, with a comment', () => {
    expect(scopeCss("@font-face { font-family: x; src: url('a.woff') }", 7)).toBe(
      "@font-face { font-family: x; src: url('a.woff') }",
    );
    const broken = scopeCss('.a { color: red', 7);
    expect(broken).toMatch(/^\/\* revision 7: its CSS does not parse/);
    expect(broken).not.toContain('color: red');
  });

  it('keeps strings and commas inside selectors whole', () => {
    expect(scopeCss('a[title="x, y"], :is(.b, .c) { a: b }', 7)).toBe(
      `${S} a[title="x, y"], ${S} :is(.b, .c) { a: b }`,
    );
  });

  it('keeps scoped CSS by revision, checked against its source', () => {
    const kept = new ScopedCss();
    expect(kept.of(7, '.a{b:c}')).toBe(`${S} .a{b:c}`);
    expect(kept.of(7, '.z{b:c}')).toBe(`${S} .z{b:c}`);
  });

  it('wraps an instance in the element that names its revision; wrapperLength is what it adds', () => {
    expect(wrapInstance(7, '<p>x</p>')).toBe(
      '<pb-instance data-pb-rev="7" style="display:contents"><p>x</p></pb-instance>',
    );
    expect(wrapInstance(123456, 'abc').length).toBe(wrapperLength(123456) + 3);
  });
});
