/**
 * The render pool on real worker threads: an overrun of the page budget or of
 * the heap terminates the thread that ran it and is a RenderError at the block
 * that was rendering; the pool goes on serving on a fresh thread.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { PageBlockInput } from '../../../src/modules/publishing/publishing.js';
import { RenderPool, type RenderEvent } from '../../../src/rendering/pool.js';
import { RenderError, Renderer } from '../../../src/rendering/renderer.js';
import { StoredJson } from '../../../src/shared/stored-json.js';
import { unwrapInstances } from '../../support/instances.js';
import { wrapperLength } from '../../../src/rendering/scope-css.js';

let nextId = 1;
const block = (template: string, values: Record<string, unknown> = {}): PageBlockInput => {
  const id = nextId++;
  return {
    id,
    parentId: null,
    revisionId: id,
    template,
    css: '',
    js: '',
    values,
    slots: {},
    blockType: 'schema',
    richtextFields: [],
  };
};
const plain = () => block('<p>{{ title }}</p>', { title: 'still here' });
/** One Liquid node that sorts for minutes: only the page budget can stop it. */
const endless = () => block(`{% assign a = (1..100000)${' | sort'.repeat(2000)} %}{{ a | size }}`);
/** A legal page that keeps its thread busy: a third of a second on a quiet core (the template, 0.9 s, at 5000). */
const slow = (inner = 2000) =>
  block(`{% for i in (1..1000) %}{% for j in (1..${inner}) %}{% endfor %}{% endfor %}{{ t }}`, { t: 'slow' });
/**
 * Budgets stay far from the time an ordinary page takes on a loaded machine (a
 * fresh thread's first page included), so that only the hostile page meets them.
 */
const BUDGET_MS = 3000;
/** 400 arrays of 100,000 numbers kept alive: about 320 MB, within LiquidJS's own allocation budget. */
const hungry = () =>
  block(
    '{% assign a = (1..100000) %}' +
      Array.from({ length: 400 }, (_, i) => `{% assign k${i} = a | reverse %}`).join('') +
      '{{ k0 | size }}',
  );

async function rejection(promise: Promise<unknown>): Promise<RenderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RenderError) return error;
    throw error;
  }
  throw new Error('expected a RenderError, but the page rendered');
}

const pools: RenderPool[] = [];
const pool = (options: ConstructorParameters<typeof RenderPool>[0]) => {
  const made = new RenderPool(options);
  pools.push(made);
  return made;
};
afterAll(() => Promise.all(pools.map((p) => p.close())));

describe('RenderPool', () => {
  it('renders a page on a thread, with children inside their parent and assets once', async () => {
    const renderer = pool({ threads: 1 });
    const parent = { ...block('<main>{{ children }}</main>'), css: '.m{}' };
    const child = { ...block('<b>{{ x }}</b>', { x: '<i>' }), parentId: parent.id };
    const page = await renderer.renderPage([parent, child]);
    expect(unwrapInstances(page.html)).toBe('<main><b>&lt;i&gt;</b></main>');
    expect(page.css).toBe(`:where([data-pb-rev="${parent.revisionId}"]) .m{}`);
    // Again, with the templates left out of the task: the thread has parsed them.
    expect((await renderer.renderPage([parent, child])).html).toBe(page.html);
  });

  it('stops a page over its budget, names the block that was rendering, and replaces the thread', async () => {
    const renderer = pool({ threads: 1, pageBudgetMs: BUDGET_MS });
    expect(unwrapInstances((await renderer.renderPage([plain()])).html)).toBe('<p>still here</p>');
    const [before] = renderer.threadIds;
    const error = await rejection(renderer.renderPage([plain(), plain(), endless()]));
    expect(error.reason).toBe('render_limit');
    expect(error.index).toBe(2);
    expect(error.errors).toEqual([{ path: 'blocks[2]', message: error.message, code: 'invalid' }]);
    expect(error.message).toMatch(/longer than 3000 ms to render, and was stopped in this block/);
    // The pool keeps serving, on another thread.
    expect(unwrapInstances((await renderer.renderPage([plain()])).html)).toBe('<p>still here</p>');
    expect(renderer.threadIds).not.toContain(before);
  });

  it('stops a page over its heap, names the block, and keeps serving', async () => {
    // Only the heap may stop this page, however slowly the machine runs it: no time limit within reach.
    const renderer = pool({ threads: 1, heapMb: 64, pageBudgetMs: 600_000, renderer: { renderLimit: 600_000 } });
    expect(unwrapInstances((await renderer.renderPage([plain()])).html)).toBe('<p>still here</p>');
    const [before] = renderer.threadIds;
    const error = await rejection(renderer.renderPage([plain(), hungry()]));
    expect(error.reason).toBe('memory_limit');
    expect(error.index).toBe(1);
    expect(error.message).toMatch(/needed more than 64 MB/);
    expect(unwrapInstances((await renderer.renderPage([plain()])).html)).toBe('<p>still here</p>');
    expect(renderer.threadIds).not.toContain(before);
  });

  it('answers other pages while one overruns, on its other threads', async () => {
    const renderer = pool({ threads: 2, pageBudgetMs: BUDGET_MS });
    const slow = rejection(renderer.renderPage([endless()]));
    const quick = await Promise.all(Array.from({ length: 5 }, () => renderer.renderPage([plain()])));
    expect(quick.map((p) => unwrapInstances(p.html))).toEqual(Array(5).fill('<p>still here</p>'));
    expect((await slow).reason).toBe('render_limit');
  });

  it('gives a page sent again with its templates its own budget: waiting behind other pages is not its time', async () => {
    // One thread; X's template is new to it, so X is sent twice. Three slow pages are queued behind X's first
    // attempt: X's second went behind them, with the clock of its first still running (issue 25), and
    // was stopped "in this block" before it had rendered anything.
    const renderer = pool({ threads: 1, pageBudgetMs: 1000, renderer: { renderLimit: 60_000 } });
    const x = renderer.renderPage([plain()]);
    const others = Array.from({ length: 3 }, () => renderer.renderPage([slow(3000)]).catch(() => undefined));
    expect(unwrapInstances((await x).html)).toBe('<p>still here</p>');
    await Promise.all(others);
  }, 90_000);

  it('serves another user’s page on a free thread while one user’s pages wait their turn', async () => {
    const renderer = pool({ threads: 2, pageBudgetMs: BUDGET_MS, renderer: { renderLimit: 60_000 } });
    // Both threads up, each busy a moment so that neither takes both pages.
    await Promise.all([renderer.renderPage([slow(100)]), renderer.renderPage([slow(100)])]);
    expect(renderer.threadIds).toHaveLength(2);
    const finished: string[] = [];
    const track = (name: string, page: Promise<unknown>) =>
      page.then(
        () => finished.push(name),
        () => finished.push(name),
      );
    const a = Array.from({ length: 3 }, (_, i) =>
      track(`a${i}`, renderer.renderPage([slow()], { userId: 1, purpose: 'preview' })),
    );
    // B comes once A's pages hold what they may: every thread, before.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const b = track('b', renderer.renderPage([plain()], { userId: 2, purpose: 'preview' }));
    await Promise.all([...a, b]);
    // One thread stayed free of A's pages: B did not wait for any of them.
    expect(finished[0]).toBe('b');
  });

  it('refuses a preview past its user’s share with a time to retry, and never a publication', async () => {
    const renderer = pool({
      threads: 2,
      waitingPerUser: 1,
      pageBudgetMs: BUDGET_MS,
      renderer: { renderLimit: 60_000 },
    });
    const a = { userId: 1, purpose: 'preview' } as const;
    const running = [renderer.renderPage([slow()], a), renderer.renderPage([slow()], a)].map((page) =>
      page.catch(() => undefined),
    );
    let refused: unknown;
    try {
      await renderer.renderPage([slow()], a);
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ kind: 'rate_limited', details: { retry_after: expect.any(Number) } });
    expect(refused).not.toBeInstanceOf(RenderError);
    const published = renderer.renderPage([plain()], { userId: 1, purpose: 'publication' });
    expect(renderer.load.waiting).toBe(2);
    expect(unwrapInstances((await published).html)).toBe('<p>still here</p>');
    await Promise.all(running);
  });

  it('reports a template error from the thread as the same RenderError, without replacing the thread', async () => {
    const renderer = pool({ threads: 1 });
    await renderer.renderPage([plain()]);
    const [before] = renderer.threadIds;
    const error = await rejection(renderer.renderPage([plain(), block('{% if %}')]));
    expect(error.reason).toBe('syntax');
    expect(error.index).toBe(1);
    const alone = await rejection(renderer.renderAlone(block('{% for i in (1..200000) %}{% endfor %}'), 42));
    expect(alone.reason).toBe('range_limit');
    expect(alone.errors).toEqual([{ path: 'template', message: alone.message, code: 'invalid' }]);
    expect(alone.message).toMatch(/^The template of block 42 /);
    expect(renderer.threadIds).toEqual([before]);
  });

  it('lays a warm page out on the main thread, from the HTML of its instances kept there', async () => {
    const events: RenderEvent[] = [];
    const renderer = pool({ threads: 1, pageBudgetMs: BUDGET_MS, onRender: (event) => events.push(event) });
    const parent = block('<main>{{ children }}</main>');
    const child = { ...block('<b>{{ x }}</b>', { x: 'one' }), parentId: parent.id };
    const dated = block('{{ "2020-01-02" | date: "%Y" }}');
    expect(unwrapInstances((await renderer.renderPage([parent, child, dated])).html)).toBe(
      '<main><b>one</b></main>\n2020',
    );
    // A thread busy for its whole budget does not hold up a page whose instances are all kept.
    const slow = rejection(renderer.renderPage([endless()]));
    expect(unwrapInstances((await renderer.renderPage([parent, child])).html)).toBe('<main><b>one</b></main>');
    expect(events.at(-1)?.instances).toEqual({ kept: 2, rendered: 0 });
    expect((await slow).reason).toBe('render_limit');
    // A changed child changes its parent's key too: both come from the thread.
    const changed = { ...child, values: { x: 'two' } };
    expect(unwrapInstances((await renderer.renderPage([parent, changed])).html)).toBe('<main><b>two</b></main>');
    expect(events.at(-1)?.instances).toEqual({ kept: 0, rendered: 2 });
    // A template with a date filter is never kept: rendered each time.
    expect(unwrapInstances((await renderer.renderPage([dated])).html)).toBe('2020');
    expect(events.at(-1)?.instances).toEqual({ kept: 0, rendered: 1 });
  });

  it('sends a thread values read from the database as their text, and keys them by it', async () => {
    const events: RenderEvent[] = [];
    const renderer = pool({ threads: 1, pageBudgetMs: BUDGET_MS, onRender: (event) => events.push(event) });
    const stored = { ...block('<p>{{ t }}</p>{% for i in list %}<i>{{ i.n }}</i>{% endfor %}'), values: {} };
    const read = (text: string) => ({ ...stored, values: StoredJson.fromText<Record<string, unknown>>(text) });
    const text = '{"t": "<x>", "list": [{"n": 1}, {"n": 2}]}';
    expect(unwrapInstances((await renderer.renderPage([read(text)])).html)).toBe('<p>&lt;x&gt;</p><i>1</i><i>2</i>');
    expect(events.at(-1)?.instances).toEqual({ kept: 0, rendered: 1 });
    // Read again (a new object, the same text): laid out here from what the thread sent back.
    expect(unwrapInstances((await renderer.renderPage([read(text)])).html)).toBe('<p>&lt;x&gt;</p><i>1</i><i>2</i>');
    expect(events.at(-1)?.instances).toEqual({ kept: 1, rendered: 0 });
    // The same values without a text (a draft): keyed by their JSON, rendered by the thread.
    expect(
      unwrapInstances((await renderer.renderPage([{ ...stored, values: { t: '<x>', list: [{ n: 1 }] } }])).html),
    ).toBe('<p>&lt;x&gt;</p><i>1</i>');
    expect(events.at(-1)?.instances).toEqual({ kept: 0, rendered: 1 });
  });
  it('sends a thread the kept HTML of the other instances of a page, and renders only what changed', async () => {
    const events: RenderEvent[] = [];
    const renderer = pool({ threads: 1, pageBudgetMs: BUDGET_MS, onRender: (event) => events.push(event) });
    const parent = block('<main>{{ children }}</main>');
    const kid = (x: string) => ({ ...block('<b>{{ x }}</b>', { x }), parentId: parent.id });
    const [one, two] = [kid('one'), kid('two')];
    const alone = block('<p>{{ t }}</p>', { t: 'alone' });
    await renderer.renderPage([parent, one, two, alone]);
    // The second child changes: it and its parent (whose key holds its children's HTML) render, the others are kept.
    const changed = [parent, one, { ...two, values: { x: '<2>' } }, alone];
    const page = await renderer.renderPage(changed);
    expect(events.at(-1)?.instances).toEqual({ kept: 2, rendered: 2 });
    expect(page).toEqual(await new Renderer({ outputCacheSize: 0 }).renderPage(changed));
    expect(unwrapInstances(page.html)).toBe('<main><b>one</b>\n<b>&lt;2&gt;</b></main>\n<p>alone</p>');
    // What the thread rendered is kept as well: the same page again needs no thread.
    expect((await renderer.renderPage(changed)).html).toBe(page.html);
    expect(events.at(-1)?.instances).toEqual({ kept: 4, rendered: 0 });
    // A page of kept instances only, but with one not kept: only that one is rendered.
    const fresh = block('<p>{{ t }}</p>', { t: 'new' });
    expect(unwrapInstances((await renderer.renderPage([alone, fresh, one])).html)).toBe(
      '<p>alone</p>\n<p>new</p>\n<b>one</b>',
    );
    expect(events.at(-1)?.instances).toEqual({ kept: 2, rendered: 1 });
  });

  it('renders a parent again when its child changes, even a child whose HTML was empty', async () => {
    const renderer = pool({ threads: 1, pageBudgetMs: BUDGET_MS });
    const wrapper = block('<div>{{ children }}</div>');
    const empty = { ...block('{{ x }}', { x: '' }), parentId: wrapper.id };
    expect(unwrapInstances((await renderer.renderPage([wrapper, empty])).html)).toBe('<div></div>');
    expect(unwrapInstances((await renderer.renderPage([wrapper, { ...empty, values: { x: 'now' } }])).html)).toBe(
      '<div>now</div>',
    );
  });

  it('says where the HTML of a page overflows as a thread does, whichever of its instances are kept', async () => {
    const six = (text: string) => block(`{{ t }}`, { t: text });
    const [b, c] = [six('bbbbbb'), six('cccccc')];
    // Room for one instance (its 6 characters in the element naming its revision) and 4 characters more.
    const outputLimit = wrapperLength(b.revisionId) + 10;
    const renderer = pool({ threads: 1, pageBudgetMs: BUDGET_MS, renderer: { outputLimit } });
    await renderer.renderPage([b]);
    await renderer.renderPage([c]);
    // With the first (not kept) block's 5 characters, the page overflows at the second, not the third.
    const error = await rejection(renderer.renderPage([six('aaaaa'), b, c]));
    expect(error.reason).toBe('output_limit');
    expect(error.index).toBe(1);
    // All kept: the main thread says it itself, at the same place.
    const kept = await rejection(renderer.renderPage([b, c]));
    expect(kept.reason).toBe('output_limit');
    expect(kept.index).toBe(1);
  });
});
