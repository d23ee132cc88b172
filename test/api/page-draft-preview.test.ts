/**
 * `POST /pages/{id}/preview`: the page as an editor holds it before saving
 * (values, bindings, order, nesting), rendered like the saved page, checked
 * like the writes that would save it, within the render budget; nothing saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage, feedFields, heroFields } from '../support/library.js';
import { unwrapInstances } from '../support/instances.js';

// A short page budget, still far above what an ordinary page takes on a loaded machine.
const BUDGET_MS = 1500;
/** One filter chain is one Liquid node: only the page budget stops it. */
const SLOW = `{% assign a = (1..100000)${' | sort'.repeat(400)} %}{{ a | size }}`;

let t: TestApp;
let user: TestUser;
let other: TestUser;
let siteId: number;
let hero: { id: number };
let feed: { id: number };
let columns: { id: number };
let page: { id: number; blocks: Array<{ id: number }> };
let ids: { heroA: number; feed: number; cols: number; heroB: number };

beforeAll(async () => {
  t = await startApp({ overrides: { renderPool: { pageBudgetMs: BUDGET_MS } } });
  user = await newUser(t);
  other = await newUser(t);
  siteId = (await newSite(t, user)).id;
  hero = await createBlock(t, user, { name: 'Hero', template: '<h1>{{ title }}</h1>', schema_content: heroFields });
  feed = await createBlock(t, user, {
    name: 'Feed',
    template: '<ul data-feed>{% for a in news %}<li>{{ a.title }}</li>{% endfor %}</ul>',
    // A slot without a default: unbound it shows nothing, bound it shows the source's stub.
    schema_content: [{ ...feedFields[1], default: undefined }],
  });
  columns = await createBlock(t, user, {
    name: 'Columns',
    kind: 'layout',
    template: '<div class="cols">{{ children }}</div>',
  });
  page = await createPage(t, user, {
    name: 'Draft',
    site_id: siteId,
    blocks: [
      { block_id: hero.id, placeholder_values: { title: 'Saved A' } },
      { block_id: feed.id },
      { block_id: columns.id },
      { block_id: hero.id, placeholder_values: { title: 'Saved B' } },
    ],
  });
  const [heroA, feedId, cols, heroB] = page.blocks.map((b) => b.id) as [number, number, number, number];
  ids = { heroA, feed: feedId, cols, heroB };
});
afterAll(() => t.close());

const draft = (body: unknown, who = user, contour: 'key' | 'session' = 'session') =>
  t.call(
    'POST',
    `${contour === 'key' ? '/api/v1' : '/api'}/pages/${page.id}/preview`,
    contour === 'key' ? { key: who.key, body } : { cookie: who.cookie, body },
  );
const saved = () => t.call('GET', `/api/v1/pages/${page.id}/preview`, { key: user.key });
const items = (html: string) => html.match(/<li>/g)?.length ?? 0;

describe('a draft of the page', () => {
  it.each(['session', 'key'] as const)(
    'shows unsaved values, bindings, order and nesting on the %s contour, and saves nothing',
    async (contour) => {
      const before = await t.call('GET', `/api/v1/pages/${page.id}?with_blocks=1`, { key: user.key });
      const r = await draft(
        {
          blocks: [
            { id: ids.heroB, placeholder_values: { title: 'Unsaved B' }, parent_page_block_id: ids.cols },
            { id: ids.cols },
            { id: ids.feed, bindings: { news: { source: 'articles.latest', params: { limit: 5 } } } },
            { id: ids.heroA },
          ],
        },
        user,
        contour,
      );
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
      expect(r.headers.get('content-security-policy')).toBe('sandbox allow-scripts');
      // B inside the columns, then the feed bound to the stub articles, then A, unchanged.
      expect(unwrapInstances(r.text)).toMatch(
        /<div class="cols">\s*<h1>Unsaved B<\/h1>\s*<\/div>[^]*data-feed[^]*<h1>Saved A<\/h1>/,
      );
      expect(items(r.text)).toBeGreaterThan(0);
      expect(items((await saved()).text)).toBe(0);

      const after = await t.call('GET', `/api/v1/pages/${page.id}?with_blocks=1`, { key: user.key });
      expect(after.body.blocks).toEqual(before.body.blocks);
      expect(after.body.updated_at).toBe(before.body.updated_at);
      expect((await saved()).text).toMatch(/<h1>Saved A<\/h1>[^]*<h1>Saved B<\/h1>/);
    },
  );

  it('without blocks is the saved page, and a left-out instance is not shown', async () => {
    expect((await draft({})).text).toBe((await saved()).text);
    const r = await draft({ blocks: [{ id: ids.heroB }] });
    expect(r.status).toBe(200);
    expect(r.text).toContain('<h1>Saved B</h1>');
    expect(r.text).not.toContain('Saved A');
    expect(r.text).not.toContain('data-feed');
  });

  it('bindings: null clears them', async () => {
    const bound = { id: ids.feed, bindings: { news: { source: 'articles.latest' } } };
    expect(items((await draft({ blocks: [bound] })).text)).toBeGreaterThan(0);
    const r = await draft({ blocks: [{ ...bound, bindings: null }] });
    expect(r.status).toBe(200);
    expect(r.text).toContain('data-feed');
    expect(items(r.text)).toBe(0);
  });

  it('keeps each instance on its pinned revision', async () => {
    const pinned = await createBlock(t, user, {
      name: 'Pinned',
      template: '<p>old {{ title }}</p>',
      schema_content: heroFields,
    });
    const p = await createPage(t, user, {
      name: 'Pinned',
      site_id: siteId,
      blocks: [{ block_id: pinned.id, placeholder_values: { title: 'x' } }],
    });
    const changed = await t.call('PUT', `/api/v1/blocks/${pinned.id}`, {
      key: user.key,
      body: { template: '<p>new {{ title }}</p>' },
    });
    expect(changed.status).toBe(200);
    const r = await t.call('POST', `/api/pages/${p.id}/preview`, {
      cookie: user.cookie,
      body: { blocks: [{ id: p.blocks[0].id, placeholder_values: { title: 'y' } }] },
    });
    expect(r.text).toContain('<p>old y</p>');
  });
});

describe('refusals, each at its path', () => {
  it('a value against the pinned schema and a binding to an unknown slot or source', async () => {
    const r = await draft({
      blocks: [
        { id: ids.heroA, placeholder_values: { title: 'x'.repeat(81) } },
        { id: ids.feed, bindings: { newz: { source: 'articles.latest' }, news: { source: 'nope' } } },
        { id: ids.heroB, placeholder_values: {} },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(
      [
        'blocks[0].placeholder_values.title',
        'blocks[1].bindings.newz',
        'blocks[1].bindings.news.source',
        'blocks[2].placeholder_values.title',
      ].sort(),
    );
  });

  it('binding params outside the source’s params_schema', async () => {
    const r = await draft({
      blocks: [{ id: ids.feed, bindings: { news: { source: 'articles.latest', params: { limitt: 2 } } } }],
    });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].path).toMatch(/^blocks\[0\]\.bindings\.news\.params/);
  });

  it('an instance not on this page (404), or listed twice (400)', async () => {
    const elsewhere = await createPage(t, user, {
      name: 'Elsewhere',
      site_id: siteId,
      blocks: [{ block_id: hero.id, placeholder_values: { title: 'e' } }],
    });
    const missing = await draft({ blocks: [{ id: ids.heroA }, { id: elsewhere.blocks[0].id }] });
    expect(missing.status).toBe(404);
    expect(missing.body.errors).toEqual([expect.objectContaining({ path: 'blocks[1].id', code: 'not_found' })]);
    const twice = await draft({ blocks: [{ id: ids.heroA }, { id: ids.heroB }, { id: ids.heroA }] });
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toEqual([expect.objectContaining({ path: 'blocks[2].id', code: 'not_unique' })]);
  });

  it('a parent that is not a layout, not in the draft, or the block itself or inside it', async () => {
    const cases: Array<[unknown[], string, RegExp]> = [
      [[{ id: ids.heroA }, { id: ids.heroB, parent_page_block_id: ids.heroA }], 'blocks[1]', /not a layout/],
      [[{ id: ids.heroB, parent_page_block_id: ids.cols }], 'blocks[0]', /not on this page/],
      [[{ id: ids.cols, parent_page_block_id: ids.cols }], 'blocks[0]', /cannot go into itself/],
    ];
    for (const [blocks, at, message] of cases) {
      const r = await draft({ blocks });
      expect(r.status, JSON.stringify(blocks)).toBe(400);
      expect(r.body.errors).toEqual([expect.objectContaining({ path: `${at}.parent_page_block_id` })]);
      expect(r.body.errors[0].message).toMatch(message);
    }
  });

  it('a body of the wrong shape, at its path', async () => {
    const r = await draft({ blocks: [{ id: ids.heroA }, { placeholder_values: {} }, { id: ids.heroB, bindings: 3 }] });
    expect(r.status).toBe(400);
    const paths = r.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toContain('blocks[1].id');
    expect(paths).toContain('blocks[2].bindings');
  });

  it('another user’s page is not found, on both contours', async () => {
    expect((await draft({ blocks: [] }, other)).status).toBe(404);
    expect((await draft({ blocks: [] }, other, 'key')).status).toBe(404);
  });

  it('a draft over the render budget is a 422 at its place in the draft, and the next one renders', async () => {
    const slow = await createBlock(t, user, {
      name: 'Slow when asked',
      template: `{% if slow %}${SLOW}{% else %}<p>quick</p>{% endif %}`,
      schema_content: [{ name: 'slow', type: 'boolean', default: false }],
    });
    const p = await createPage(t, user, {
      name: 'Budget',
      site_id: siteId,
      blocks: [{ block_id: hero.id, placeholder_values: { title: 'h' } }, { block_id: slow.id }],
    });
    const [h, s] = p.blocks.map((b: { id: number }) => b.id);
    const call = (blocks: unknown[]) =>
      t.call('POST', `/api/pages/${p.id}/preview`, { cookie: user.cookie, body: { blocks } });
    expect((await call([{ id: h }, { id: s }])).text).toContain('<p>quick</p>');
    const over = await call([{ id: s, placeholder_values: { slow: true } }, { id: h }]);
    expect(over.status).toBe(422);
    expect(over.body.error).toMatch(new RegExp(`longer than ${BUDGET_MS} ms`));
    expect(over.body.errors).toEqual([expect.objectContaining({ path: 'blocks[0]' })]);
    expect((await call([{ id: s }, { id: h }])).status).toBe(200);
  });

  it('marks each block with its instance when asked (marks=1), children inside their parent, and never otherwise', async () => {
    const body = { blocks: [{ id: ids.heroA }, { id: ids.cols }, { id: ids.heroB, parent_page_block_id: ids.cols }] };
    const marked = (extra = '') =>
      `<!--pb-block:${ids.heroA}--><h1>Saved A</h1><!--/pb-block:${ids.heroA}-->\n` +
      `<!--pb-block:${ids.cols}--><div class="cols"><!--pb-block:${ids.heroB}--><h1>Saved B${extra}</h1>` +
      `<!--/pb-block:${ids.heroB}--></div><!--/pb-block:${ids.cols}-->`;
    const ask = (query: string, blocks: unknown[] = body.blocks) =>
      t.call('POST', `/api/pages/${page.id}/preview${query}`, { cookie: user.cookie, body: { blocks } });
    // Twice each: rendered on a thread, then laid out from the kept HTML; the marked and the plain never mix.
    for (let round = 0; round < 2; round++) {
      const r = await ask('?marks=1');
      expect(r.status).toBe(200);
      expect(unwrapInstances(r.text)).toContain(marked());
      const plain = await ask('');
      expect(unwrapInstances(plain.text)).toContain('<h1>Saved A</h1>\n<div class="cols"><h1>Saved B</h1></div>');
      expect(plain.text).not.toContain('pb-block');
    }
    const edited = await ask('?marks=1', [
      ...body.blocks.slice(0, 2),
      { ...body.blocks[2]!, placeholder_values: { title: 'Saved B, edited' } },
    ]);
    expect(unwrapInstances(edited.text)).toContain(marked(', edited'));
    expect((await saved()).text).not.toContain('pb-block');
    expect((await ask('?marks=2')).status).toBe(400);
  });
});
