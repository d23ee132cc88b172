import { Liquid } from 'liquidjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RenderError, Renderer, type BlockRenderInput, type PageBlockInput } from '../../../src/rendering/index.js';
import { AppError } from '../../../src/shared/errors.js';
import { unwrapInstances } from '../../support/instances.js';

let nextRevision = 1000;
const block = (overrides: Partial<BlockRenderInput> = {}): BlockRenderInput => ({
  revisionId: nextRevision++,
  template: '',
  values: {},
  slots: {},
  blockType: 'schema',
  richtextFields: [],
  ...overrides,
});

const pageBlock = (overrides: Partial<PageBlockInput> & { id: number }): PageBlockInput => ({
  parentId: null,
  revisionId: nextRevision++,
  template: '',
  css: '',
  js: '',
  values: {},
  slots: {},
  blockType: 'schema',
  richtextFields: [],
  ...overrides,
});

afterEach(() => vi.restoreAllMocks());

describe('Renderer.renderBlock: variables and escaping', () => {
  const renderer = new Renderer();

  it('gives each value as a variable of its own name, HTML-escaped', async () => {
    const html = await renderer.renderBlock(
      block({
        template: '<h1>{{ title }}</h1><p>{{ count }} {{ meta.author }}</p><a title="{{ quote }}">x</a>',
        values: { title: '<b>bold</b> & co', count: 3, meta: { author: '<i>Ann</i>' }, quote: `"it's"` },
      }),
    );
    expect(html).toBe(
      '<h1>&lt;b&gt;bold&lt;/b&gt; &amp; co</h1><p>3 &lt;i&gt;Ann&lt;/i&gt;</p><a title="&#34;it&#39;s&#34;">x</a>',
    );
  });

  it('gives each slot its data under the slot name, escaped', async () => {
    const html = await renderer.renderBlock(
      block({
        template: '{% for article in latest %}<li>{{ article.title }}</li>{% endfor %}',
        slots: { latest: [{ title: 'First' }, { title: '<script>x</script>' }] },
      }),
    );
    expect(html).toBe('<li>First</li><li>&lt;script&gt;x&lt;/script&gt;</li>');
  });

  it('inserts richtext values sanitized, as HTML', async () => {
    const html = await renderer.renderBlock(
      block({
        template: '<div>{{ body }}</div>',
        values: {
          body: '<p>Hi <b>there</b><script>alert(1)</script><img src="https://example.com/a.png" onerror="alert(2)"></p>',
        },
        richtextFields: ['body'],
      }),
    );
    expect(html).toBe('<div><p>Hi <b>there</b><img src="https://example.com/a.png" /></p></div>');
  });

  it('escapes the same HTML in a field that is not richtext', async () => {
    const html = await renderer.renderBlock(
      block({
        template: '{{ body }}|{{ other }}',
        values: { body: '<b>x</b>', other: '<b>x</b>' },
        richtextFields: ['body'],
      }),
    );
    expect(html).toBe('<b>x</b>|&lt;b&gt;x&lt;/b&gt;');
  });

  it('escapes what a filter makes of trusted HTML: only the value itself is trusted', async () => {
    const html = await renderer.renderBlock(
      block({
        template: '{{ body | upcase }}',
        values: { body: '<b>x</b>' },
        richtextFields: ['body'],
      }),
    );
    expect(html).toBe('&lt;B&gt;X&lt;/B&gt;');
  });

  it('never trusts slot data, even under a richtext field name', async () => {
    const html = await renderer.renderBlock(
      block({ template: '{{ body }}', slots: { body: '<b>x</b>' }, richtextFields: ['body'] }),
    );
    expect(html).toBe('&lt;b&gt;x&lt;/b&gt;');
  });

  it('gives _markdown of a markdown block as rendered, sanitized GFM', async () => {
    const html = await renderer.renderBlock(
      block({
        blockType: 'markdown',
        template: '<article class="{{ theme }}">{{ _markdown }}</article>',
        values: {
          theme: 'dark',
          _markdown: '## Hello\n\n**bold** [x](javascript:alert(1))\n\n<script>alert(1)</script>',
        },
      }),
    );
    expect(html).toBe('<article class="dark"><h2>Hello</h2>\n<p><strong>bold</strong> <a>x</a></p>\n</article>');
  });

  it('renders an absent _markdown of a markdown block as empty', async () => {
    expect(await renderer.renderBlock(block({ blockType: 'markdown', template: '[{{ _markdown }}]' }))).toBe('[]');
  });

  it('renders other markdown fields when named', async () => {
    const html = await renderer.renderBlock(
      block({ template: '{{ intro }}', values: { intro: '*hi*' }, markdownFields: ['intro'] }),
    );
    expect(html).toBe('<p><em>hi</em></p>\n');
  });

  it('inserts children unescaped', async () => {
    const html = await renderer.renderBlock(
      block({ template: '<main>{{ children }}</main>', children: '<section>a &amp; b</section>' }),
    );
    expect(html).toBe('<main><section>a &amp; b</section></main>');
  });

  it('cannot read files through include or render', async () => {
    for (const template of [
      "{% include 'package.json' %}",
      "{% render 'package.json' %}",
      "{% layout 'package.json' %}x",
    ]) {
      const error = await renderer.renderBlock(block({ template })).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RenderError);
    }
  });

  it('hides JavaScript prototypes from templates', async () => {
    const html = await renderer.renderBlock(
      block({
        template: '[{{ meta.constructor }}{{ meta.__proto__ }}{{ list.constructor }}]',
        values: { meta: {}, list: [] },
      }),
    );
    expect(html).toBe('[]');
  });
});

describe('Renderer: the parsed-template cache', () => {
  it('parses a revision once', async () => {
    const parse = vi.spyOn(Liquid.prototype, 'parse');
    const renderer = new Renderer();
    const input = block({ template: '{{ n }}' });
    expect(await renderer.renderBlock({ ...input, values: { n: 1 } })).toBe('1');
    expect(await renderer.renderBlock({ ...input, values: { n: 2 } })).toBe('2');
    expect(parse).toHaveBeenCalledTimes(1);
    await renderer.renderBlock(block({ template: '{{ n }}' }));
    expect(parse).toHaveBeenCalledTimes(2);
  });

  it('keys on the revision id alone, by design: revisions are immutable', async () => {
    const renderer = new Renderer();
    const revisionId = nextRevision++;
    expect(await renderer.renderBlock(block({ revisionId, template: 'first' }))).toBe('first');
    expect(await renderer.renderBlock(block({ revisionId, template: 'second' }))).toBe('first');
  });

  it('is bounded: the least recently used revision is parsed again', async () => {
    const parse = vi.spyOn(Liquid.prototype, 'parse');
    const renderer = new Renderer({ cacheSize: 2 });
    const [a, b, c] = [block({ template: 'a' }), block({ template: 'b' }), block({ template: 'c' })];
    await renderer.renderBlock(a);
    await renderer.renderBlock(b);
    await renderer.renderBlock(a); // a is now the most recent
    await renderer.renderBlock(c); // evicts b
    expect(parse).toHaveBeenCalledTimes(3);
    await renderer.renderBlock(a);
    expect(parse).toHaveBeenCalledTimes(3);
    await renderer.renderBlock(b);
    expect(parse).toHaveBeenCalledTimes(4);
  });

  it('does not cache a template that failed to parse', async () => {
    const renderer = new Renderer();
    const revisionId = nextRevision++;
    await expect(renderer.renderBlock(block({ revisionId, template: '{% if %}' }))).rejects.toBeInstanceOf(RenderError);
    expect(await renderer.renderBlock(block({ revisionId, template: 'fixed' }))).toBe('fixed');
  });
});

describe('Renderer.renderPage', () => {
  const renderer = new Renderer();

  it('renders blocks in order, children into their parent in order', async () => {
    const layout = pageBlock({ id: 1, template: '<div class="cols">{{ children }}</div>' });
    const page = await renderer.renderPage([
      pageBlock({ id: 5, template: '<header>{{ t }}</header>', values: { t: 'Top' } }),
      layout,
      pageBlock({ id: 2, parentId: 1, template: '<p>{{ t }}</p>', values: { t: 'left' } }),
      pageBlock({ id: 3, parentId: 1, template: '<p>{{ t }}</p>', values: { t: '<right>' } }),
      pageBlock({ id: 4, template: '<footer></footer>' }),
    ]);
    expect(unwrapInstances(page.html)).toBe(
      '<header>Top</header>\n<div class="cols"><p>left</p>\n<p>&lt;right&gt;</p></div>\n<footer></footer>',
    );
  });

  it('nests layouts inside layouts', async () => {
    const page = await renderer.renderPage([
      pageBlock({ id: 1, template: '<outer>{{ children }}</outer>' }),
      pageBlock({ id: 2, parentId: 1, template: '<inner>{{ children }}</inner>' }),
      pageBlock({ id: 3, parentId: 2, template: 'leaf' }),
    ]);
    expect(unwrapInstances(page.html)).toBe('<outer><inner>leaf</inner></outer>');
  });

  it('includes the CSS and JS of one revision once for two instances, in first-use order', async () => {
    const card = {
      revisionId: nextRevision++,
      template: '<div class="card">{{ t }}</div>',
      css: '.card{color:red}',
      js: 'initCard()',
    };
    const hero = { revisionId: nextRevision++, template: '<h1>hero</h1>', css: '.hero{}', js: 'initHero()' };
    const page = await renderer.renderPage([
      pageBlock({ id: 1, ...hero }),
      pageBlock({ id: 2, ...card, values: { t: 'one' } }),
      pageBlock({ id: 3, ...card, values: { t: 'two' } }),
    ]);
    const [h, c] = [hero.revisionId, card.revisionId];
    const wrap = (revision: number, html: string) =>
      `<pb-instance data-pb-rev="${revision}" style="display:contents">${html}</pb-instance>`;
    expect(page.html).toBe(
      [wrap(h, '<h1>hero</h1>'), wrap(c, '<div class="card">one</div>'), wrap(c, '<div class="card">two</div>')].join(
        '\n',
      ),
    );
    // Each revision's CSS once, scoped to its own instances; its JS once, in a block of its own.
    expect(page.css).toBe(`:where([data-pb-rev="${h}"]) .hero{}\n:where([data-pb-rev="${c}"]) .card{color:red}`);
    expect(page.js).toBe(
      [h, c]
        .map(
          (revision, i) =>
            `{\nconst pbInstances = document.querySelectorAll('[data-pb-rev="${revision}"]');\n${['initHero()', 'initCard()'][i]}\n}`,
        )
        .join('\n'),
    );
  });

  it('still renders a block whose parent is not on the page', async () => {
    const page = await renderer.renderPage([pageBlock({ id: 7, parentId: 99, template: 'orphan' })]);
    expect(unwrapInstances(page.html)).toBe('orphan');
  });

  it('names the failing block and revision', async () => {
    const revisionId = nextRevision++;
    const error = await renderer
      .renderPage([pageBlock({ id: 1, template: 'ok' }), pageBlock({ id: 42, revisionId, template: '{{ x | }' })])
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(RenderError);
    expect(error).toBeInstanceOf(AppError);
    const renderError = error as RenderError;
    expect(renderError.kind).toBe('unprocessable');
    expect(renderError.blockId).toBe(42);
    expect(renderError.revisionId).toBe(revisionId);
    expect(renderError.details).toEqual({ block_id: 42, revision_id: revisionId });
    expect(renderError.message).toContain(`Block 42 (revision ${revisionId})`);
  });
});

describe('Renderer.previewDocument', () => {
  const renderer = new Renderer();

  it('wraps a page in a full document, scripts last', () => {
    const doc = renderer.previewDocument({
      title: 'A <b>&</b> "page"',
      html: '<p>body</p>',
      css: 'p{color:red}',
      js: 'go()',
    });
    expect(doc.startsWith('<!doctype html>\n')).toBe(true);
    expect(doc).toContain('<meta charset="utf-8">');
    expect(doc).toContain('<title>A &lt;b&gt;&amp;&lt;/b&gt; &quot;page&quot;</title>');
    expect(doc).toMatch(/<head>[\s\S]*<style>\np\{color:red\}\n<\/style>[\s\S]*<\/head>/);
    expect(doc).toMatch(/<body>\n<p>body<\/p>\n<script>\ngo\(\)\n<\/script>\n<\/body>\n<\/html>\n$/);
  });

  it('keeps a </script> or </style> inside block code from closing the element', () => {
    const doc = renderer.previewDocument({
      title: 't',
      html: '',
      css: 'a{}</style><img src=x onerror=alert(1)>',
      js: 'var s = "</script><img src=x onerror=alert(1)>";',
    });
    expect(doc.match(/<\/style>/g)).toHaveLength(1);
    expect(doc.match(/<\/script>/g)).toHaveLength(1);
  });
});
