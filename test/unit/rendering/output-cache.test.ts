import fc from 'fast-check';
import { Liquid } from 'liquidjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Renderer, type BlockRenderInput } from '../../../src/rendering/index.js';
import { OutputCache } from '../../../src/rendering/caches.js';
import { StoredJson } from '../../../src/shared/stored-json.js';

let nextRevision = 5000;
const block = (overrides: Partial<BlockRenderInput> = {}): BlockRenderInput => ({
  revisionId: nextRevision++,
  template: '<p>{{ t }}</p>{% for s in feed %}<i>{{ s }}</i>{% endfor %}{{ children }}',
  values: { t: 'x' },
  slots: { feed: ['a'] },
  blockType: 'schema',
  richtextFields: [],
  ...overrides,
});

afterEach(() => vi.restoreAllMocks());

describe('Renderer: the rendered-instance cache', () => {
  it('renders the same revision with the same inputs once', async () => {
    const render = vi.spyOn(Liquid.prototype, 'renderSync');
    const renderer = new Renderer();
    const input = block();
    const first = await renderer.renderBlock(input);
    expect(await renderer.renderBlock({ ...input, values: { t: 'x' } })).toBe(first);
    expect(render).toHaveBeenCalledTimes(1);
    expect(renderer.outputCacheStats).toMatchObject({ entries: 1, hits: 1 });
    // The key (the inputs' JSON) is charged too.
    expect(renderer.outputCacheStats.bytes).toBeGreaterThan(2 * first.length + 2 * JSON.stringify(input.values).length);
  });

  it('renders again when anything that decides the HTML differs', async () => {
    const render = vi.spyOn(Liquid.prototype, 'renderSync');
    const renderer = new Renderer();
    const input = block();
    const variants: BlockRenderInput[] = [
      input,
      { ...input, values: { t: 'y' } },
      { ...input, slots: { feed: ['b'] } },
      { ...input, children: '<b>child</b>' },
      { ...input, richtextFields: ['t'] },
      { ...input, markdownFields: ['t'] },
      { ...input, blockType: 'markdown' },
      { ...input, revisionId: nextRevision++ },
    ];
    const html = [];
    for (const variant of variants) html.push(await renderer.renderBlock(variant));
    expect(render).toHaveBeenCalledTimes(variants.length);
    expect(html[1]).toContain('<p>y</p>');
    expect(html[2]).toContain('<i>b</i>');
    expect(html[3]).toContain('<b>child</b>');
    expect(renderer.outputCacheStats.hits).toBe(0);
  });

  it('never keeps the HTML of a template that uses a date filter (it may show the time)', async () => {
    const render = vi.spyOn(Liquid.prototype, 'renderSync');
    const renderer = new Renderer();
    const input = block({ template: "{% assign w = 'n' | append: 'ow' %}{{ w | date: '%Y' }}" });
    const year = String(new Date().getFullYear());
    expect(await renderer.renderBlock(input)).toBe(year);
    expect(await renderer.renderBlock(input)).toBe(year);
    expect(render).toHaveBeenCalledTimes(2);
    expect(renderer.outputCacheStats.entries).toBe(0);
  });

  it('is bounded by bytes, the least recently used first out; 0 keeps nothing', async () => {
    // Same-length revision ids and templates: every entry weighs the same.
    const [a, b, c] = ['aaaaaaaaaa', 'bbbbbbbbbb', 'cccccccccc'].map((t, i) =>
      block({ template: t, revisionId: 7001 + i }),
    );
    const probe = new Renderer();
    await probe.renderBlock(a!);
    const entry = probe.outputCacheStats.bytes;
    const renderer = new Renderer({ outputCacheSize: Math.floor(2.5 * entry) });
    await renderer.renderBlock(a!);
    await renderer.renderBlock(b!);
    await renderer.renderBlock(a!); // a is now the most recent
    await renderer.renderBlock(c!); // three entries do not fit: b goes
    expect(renderer.outputCacheStats).toMatchObject({ entries: 2, bytes: 2 * entry, hits: 1 });
    await renderer.renderBlock(a!);
    expect(renderer.outputCacheStats.hits).toBe(2);
    await renderer.renderBlock(b!);
    expect(renderer.outputCacheStats.hits).toBe(2);

    const none = new Renderer({ outputCacheSize: 0 });
    await none.renderBlock(a!);
    await none.renderBlock(a!);
    expect(none.outputCacheStats).toMatchObject({ entries: 0, hits: 0 });
  });

  it('does not keep a failed render', async () => {
    const renderer = new Renderer({ outputLimit: 5 });
    const input = block({ template: '{{ t }}', values: { t: 'too long' } });
    await expect(renderer.renderBlock(input)).rejects.toThrow();
    await expect(renderer.renderBlock(input)).rejects.toThrow();
    expect(renderer.outputCacheStats.entries).toBe(0);
  });

  it('keys values read from the database by their stored text, and never confuses two texts', async () => {
    const render = vi.spyOn(Liquid.prototype, 'renderSync');
    const renderer = new Renderer();
    const input = block({ values: { t: 'x' } });
    const first = await renderer.renderBlock(input);
    // The same values as stored text in JSON.stringify's form: the same key, no render.
    expect(await renderer.renderBlock({ ...input, values: StoredJson.fromText('{"t":"x"}') })).toBe(first);
    expect(render).toHaveBeenCalledTimes(1);
    // PostgreSQL's jsonb text of the same values: another key, rendered once more, the same HTML.
    expect(await renderer.renderBlock({ ...input, values: StoredJson.fromText('{"t": "x"}') })).toBe(first);
    expect(render).toHaveBeenCalledTimes(2);
    // Other values, even as text that begins like the first: rendered, with what the text holds.
    expect(await renderer.renderBlock({ ...input, values: StoredJson.fromText('{"t":"x","u":1}') })).toBe(first);
    expect(await renderer.renderBlock({ ...input, values: StoredJson.fromText('{"t":"y"}') })).toBe('<p>y</p><i>a</i>');
    expect(render).toHaveBeenCalledTimes(4);
    // A value replaced by another object (a draft) has no text: keyed by what it holds.
    const stored = StoredJson.fromText<Record<string, unknown>>('{"t":"y"}');
    expect(await renderer.renderBlock({ ...input, values: { ...stored.value, t: 'z' } })).toBe('<p>z</p><i>a</i>');
    expect(render).toHaveBeenCalledTimes(5);
  });
});

describe('OutputCache: least recently used out', () => {
  it('evicts as a plain list in recency order would, over any run of reads and writes', () => {
    // Five-character keys and HTML: every entry weighs twenty bytes; room for three.
    const op = fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 7 }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const cache = new OutputCache(70);
        const model: string[] = [];
        for (const [write, n] of ops) {
          const key = `key-${n}`;
          const at = model.indexOf(key);
          if (write) {
            cache.set(key, 'html!');
            if (at >= 0) model.splice(at, 1);
            model.push(key);
            if (model.length > 3) model.shift();
          } else {
            expect(cache.get(key)).toBe(at >= 0 ? 'html!' : undefined);
            if (at >= 0) model.push(...model.splice(at, 1));
          }
        }
        expect(cache.stats.entries).toBe(model.length);
      }),
    );
  });
});
