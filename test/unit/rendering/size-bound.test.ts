/**
 * The bound that spares a page write its render (`SizeBound`): it may say
 * "render to know" of a page that fits, never "fits" of a page whose HTML is
 * longer than it says. Each case is rendered by the real Renderer and the
 * bound held against the HTML's length.
 */
import { describe, expect, it } from 'vitest';
import { Renderer, type PageBlockInput } from '../../../src/rendering/index.js';
import { SizeBound, shapeOf } from '../../../src/rendering/size-bound.js';
import { BENCH_TEMPLATE, benchValues } from '../../../bench/lib/api.js';

let revision = 5000;
const pageBlock = (overrides: Partial<PageBlockInput> & { id: number }): PageBlockInput => ({
  parentId: null,
  revisionId: revision++,
  template: '',
  css: '',
  js: '',
  values: {},
  slots: {},
  blockType: 'schema',
  richtextFields: [],
  ...overrides,
});

const quotes = '"&<>\'"'.repeat(20);
const unicode = 'é✓𝄞'.repeat(30);

/** Pages whose shape can be bounded, with values chosen to make their HTML as long as they can. */
const BOUNDED: Array<{ name: string; blocks: PageBlockInput[] }> = [
  {
    name: 'escaped values',
    blocks: [
      pageBlock({
        id: 1,
        template: '<p title="{{ a }}">{{ a }}{{ b | escape }}</p>',
        values: { a: quotes, b: quotes },
      }),
    ],
  },
  {
    name: 'url_encode of 4-byte characters',
    blocks: [
      pageBlock({ id: 1, template: '<a href="/{{ u | url_encode }}">{{ u | upcase }}</a>', values: { u: unicode } }),
    ],
  },
  {
    name: 'a loop over a value, repeating another value each time',
    blocks: [
      pageBlock({
        id: 1,
        template: '{% for i in items %}<li>{{ title }} {{ i.label }} {{ forloop.index }}</li>{% endfor %}',
        values: { title: quotes, items: Array.from({ length: 12 }, (_, i) => ({ label: `${quotes}${i}` })) },
      }),
    ],
  },
  {
    name: 'nested loops over an item of the outer one',
    blocks: [
      pageBlock({
        id: 1,
        template: '{% for row in rows %}{% for cell in row %}<td>{{ cell }}{{ title }}</td>{% endfor %}{% endfor %}',
        values: {
          title: 'x'.repeat(5),
          rows: Array.from({ length: 5 }, () => Array.from({ length: 5 }, () => '&')),
        },
      }),
    ],
  },
  {
    name: 'a slot looped over',
    blocks: [
      pageBlock({
        id: 1,
        template: '{% for a in news %}<h3>{{ a.title }}</h3>{% endfor %}',
        slots: { news: Array.from({ length: 20 }, () => ({ title: quotes })) },
      }),
    ],
  },
  {
    name: 'a layout showing its children twice, nested',
    blocks: [
      pageBlock({ id: 1, template: '<div>{{ children }}{{ children }}</div>' }),
      pageBlock({ id: 2, parentId: 1, template: '<section>{{ children }}{{ children }}</section>' }),
      pageBlock({ id: 3, parentId: 2, template: '<p>{{ t }}</p>', values: { t: quotes } }),
      pageBlock({ id: 4, parentId: 2, template: '<p>{{ t | default: "none" }}</p>' }),
    ],
  },
  {
    name: 'a richtext value',
    blocks: [
      pageBlock({
        id: 1,
        template: '<div>{{ body }}</div>',
        values: { body: '<b><i><u>'.repeat(30) + '&'.repeat(50) },
        richtextFields: ['body'],
      }),
    ],
  },
  {
    name: 'the benchmarks’ template',
    blocks: Array.from({ length: 20 }, (_, i) =>
      pageBlock({ id: i + 1, template: BENCH_TEMPLATE, values: benchValues(i) }),
    ),
  },
];

describe('SizeBound', () => {
  const renderer = new Renderer();

  it.each(BOUNDED)('never says a page fits under its HTML’s length: $name', async ({ blocks }) => {
    const { html } = await renderer.renderPage(blocks);
    const bound = new SizeBound();
    expect(bound.fits(blocks, 2 * 1024 * 1024)).toBe(true);
    expect(bound.fits(blocks, html.length - 1)).toBe(false);
  });

  it.each([
    ['an assignment', '{% assign x = t | append: t %}{{ x }}'],
    ['a capture', '{% capture x %}{{ t }}{{ t }}{% endcapture %}{{ x }}'],
    ['a range', '{% for i in (1..1000) %}{{ t }}{% endfor %}'],
    ['append', '{{ t | append: t }}'],
    ['join', '{{ items | join: "............" }}'],
    ['newline_to_br', '{{ t | newline_to_br }}'],
    ['a filter argument with a pipe', '{{ t | default: "a|b" }}'],
    ['cycle', '{% for i in items %}{% cycle "aaaaaaaaaaaa", "b" %}{% endfor %}'],
    ['an echo', '{% echo t %}'],
    ['a comment that could hide a tag', '{% comment %}{% endfor %}{% endcomment %}'],
    ['raw', '{% raw %}{% endraw %}'],
    ['an unclosed loop', '{% for i in items %}{{ i }}'],
  ])('has no shape for a template with %s: its page is rendered', (_name, template) => {
    expect(shapeOf(template)).toBeUndefined();
    const blocks = [pageBlock({ id: 1, template, values: { t: 'x', items: [1] } })];
    expect(new SizeBound().fits(blocks, 2 * 1024 * 1024)).toBe(false);
  });

  it('has the page rendered when a value holds Markdown, or the block is a Markdown block', () => {
    const bound = new SizeBound();
    expect(bound.fits([pageBlock({ id: 1, template: '{{ _markdown }}', values: { _markdown: '[a][r]' } })], 1e6)).toBe(
      false,
    );
    expect(bound.fits([pageBlock({ id: 1, template: '<p></p>', blockType: 'markdown' })], 1e6)).toBe(false);
  });

  it('has a page in a cycle of parents rendered', () => {
    const blocks = [
      pageBlock({ id: 1, parentId: 2, template: '{{ children }}' }),
      pageBlock({ id: 2, parentId: 1, template: '{{ children }}' }),
    ];
    expect(new SizeBound().fits(blocks, 1e6)).toBe(false);
  });
});
