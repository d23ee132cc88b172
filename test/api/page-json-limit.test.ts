/**
 * A page's JSON has a limit (`PAGE_JSON_LIMIT_KB`, 1 MiB unless set), checked
 * on every write that can grow a page: over it, a 422 at the place that takes
 * it over, with the limit and the figure. Issue 25: a 9.6 MB page could be
 * written, and ten reads of it at once held the event loop 0.6 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';
import { checkPageJson, pageBytes } from '../../src/modules/pages/page-size.js';
import { toolJson } from '../support/mcp-answer.js';

const LIMIT_KB = 16;
const LIMIT = LIMIT_KB * 1024;
const fields = [
  { name: 'title', type: 'string' },
  { name: 'body', type: 'text' },
];

let t: TestApp;
let user: TestUser;
let site: { id: number };
let block: { id: number };

beforeAll(async () => {
  t = await startApp({ env: { PAGE_JSON_LIMIT_KB: String(LIMIT_KB) } });
  user = await newUser(t);
  site = await newSite(t, user);
  block = await createBlock(t, user, { name: 'Text', template: '<p>{{ title }}</p>', schema_content: fields });
});
afterAll(() => t.close());

/** An instance whose JSON is about `kb` KiB, nearly all of it its body. */
const instance = (kb: number, title = 't') => ({
  block_id: block.id,
  placeholder_values: { title, body: 'x'.repeat(kb * 1024 - 100) },
});

const expectOver = (r: { status: number; body: any }, path: string) => {
  expect(r.status, JSON.stringify(r.body)).toBe(422);
  expect(r.body.errors).toHaveLength(1);
  expect(r.body.errors[0]).toMatchObject({ path, code: 'too_large' });
  expect(r.body.error).toContain(`over its limit of ${LIMIT} bytes`);
  expect(r.body.errors[0].expected.limit_bytes).toBe(LIMIT);
  expect(r.body.errors[0].expected.bytes).toBeGreaterThan(LIMIT);
  expect(r.body.error).toContain(`would be ${r.body.errors[0].expected.bytes} bytes`);
};

describe("a page's JSON limit", () => {
  it('counts what JSON.stringify of the page as a whole-set write would take', () => {
    const page = {
      name: 'Ünïcode ✓',
      slug: null,
      meta_title: 'a "quoted" title',
      meta_description: null,
      meta_keywords: null,
      meta_robots: null,
    };
    const blocks = [
      { block_id: 1, placeholder_values: {}, bindings: null, parent_page_block_id: null },
      {
        block_id: 22,
        placeholder_values: { title: 'é', list: [1, { a: 'b' }], n: null },
        bindings: { feed: { source: 'articles.latest', params: { limit: 3 } } },
        parent_page_block_id: 7,
      },
    ];
    expect(pageBytes(page, blocks)).toBe(Buffer.byteLength(JSON.stringify({ ...page, blocks })));
    expect(pageBytes(page, [])).toBe(Buffer.byteLength(JSON.stringify({ ...page, blocks: [] })));
  });

  it('counts the values by the JSON text a write made of them, to the byte, as by the values', () => {
    const page = {
      name: 'Ünïcode ✓',
      slug: null,
      meta_title: null,
      meta_description: null,
      meta_keywords: null,
      meta_robots: null,
    };
    const kept = { block_id: 3, placeholder_values: { title: 'kept' }, bindings: null, parent_page_block_id: null };
    const values = [{ title: 'é', list: [1, { a: 'b' }], n: null }, {}, { body: 'x'.repeat(40) }];
    const written = values.map((v, i) => ({
      block_id: 10 + i,
      placeholder_values: v,
      bindings: i === 0 ? { feed: { source: 'articles.latest', params: { limit: 3 } } } : null,
      parent_page_block_id: i === 2 ? 7 : null,
      at: `blocks[${i}]`,
    }));
    const withText = written.map((w) => ({ ...w, values_text: JSON.stringify(w.placeholder_values) }));
    const total = pageBytes(page, [kept, ...written]);
    const refusal = (instances: typeof written, limit: number) => {
      try {
        checkPageJson(page, [kept, ...instances], limit);
        return undefined;
      } catch (error) {
        return (error as { errors: { path: string; expected: unknown }[] }).errors[0];
      }
    };
    for (const instances of [written, withText]) {
      expect(refusal(instances, total)).toBeUndefined();
      expect(refusal(instances, total - 1)).toEqual(refusal(written, total - 1));
      expect(refusal(instances, total - 1)).toMatchObject({ expected: { bytes: total, limit_bytes: total - 1 } });
    }
  });

  it('refuses a new page over it at the instance value that takes it over, and takes one under it', async () => {
    const over = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: { name: 'Big', site_id: site.id, blocks: [instance(6), instance(6), instance(6)] },
    });
    expectOver(over, 'blocks[2].placeholder_values.body');
    const under = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: { name: 'Fits', site_id: site.id, blocks: [instance(6), instance(6)] },
    });
    expect(under.status).toBe(201);
  });

  it('refuses the same on the cookie contour and through MCP', async () => {
    const body = { name: 'Big', site_id: site.id, blocks: [instance(10), instance(10)] };
    const cookie = await t.call('POST', '/api/pages', {
      cookie: user.cookie,
      headers: { origin: 'http://pageblocks.test' },
      body,
    });
    expectOver(cookie, 'blocks[1].placeholder_values.body');
    const rpc = await t.call('POST', '/api/v1/mcp', {
      key: user.key,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_page', arguments: body } },
    });
    const result = rpc.body.result;
    expect(result.isError).toBe(true);
    const refused = toolJson(result);
    expect(refused.status).toBe(422);
    expect(refused.errors[0]).toMatchObject({
      path: 'blocks[1].placeholder_values.body',
      code: 'too_large',
    });
  });

  it('refuses a whole-set PUT over it, and a PUT of the fields alone of a page near it', async () => {
    const page = await createPage(t, user, { name: 'P', site_id: site.id, blocks: [instance(6)] });
    const over = await t.call('PUT', `/api/v1/pages/${page.id}`, {
      key: user.key,
      body: { blocks: [instance(4), instance(4), instance(4), instance(5)] },
    });
    expectOver(over, 'blocks[3].placeholder_values.body');
    const renamed = await t.call('PUT', `/api/v1/pages/${page.id}`, { key: user.key, body: { name: 'Q' } });
    expect(renamed.status).toBe(200);
  });

  it('refuses every page-block write that would take a page over it, at the path in its own body', async () => {
    const page = await createPage(t, user, {
      name: 'Near',
      site_id: site.id,
      blocks: [instance(6), instance(6, 'small')],
    });
    const [, second] = (await t.call('GET', `/api/v1/pages/${page.id}`, { key: user.key, query: { with_blocks: 1 } }))
      .body.blocks;
    const base = `/api/v1/pages/${page.id}/blocks`;

    const added = await t.call('POST', base, {
      key: user.key,
      body: { position: 0, blocks: [instance(1), instance(4)] },
    });
    expectOver(added, 'blocks[1].placeholder_values.body');

    const changed = await t.call('PUT', `${base}/${second.id}`, {
      key: user.key,
      body: { placeholder_values: { title: 'x', body: 'y'.repeat(11 * 1024) } },
    });
    expectOver(changed, 'placeholder_values.body');

    const replaced = await t.call('PUT', `${base}/${second.id}/replace`, {
      key: user.key,
      body: { block_id: block.id, placeholder_values: { title: 'x', body: 'y'.repeat(11 * 1024) } },
    });
    expectOver(replaced, 'placeholder_values.body');

    // Nothing was written: the page is as it was.
    const after = await t.call('GET', `/api/v1/pages/${page.id}`, { key: user.key, query: { with_blocks: 1 } });
    expect(after.body.blocks.map((b: any) => b.placeholder_values.title)).toEqual(['t', 'small']);
  });

  it('refuses an upgrade whose new defaults would take the page over it, at the instance in the page', async () => {
    const own = await createBlock(t, user, { name: 'Grows', template: '<p>{{ title }}</p>', schema_content: fields });
    const page = await createPage(t, user, {
      name: 'Upgraded',
      site_id: site.id,
      blocks: [
        { block_id: block.id, placeholder_values: { title: 'a', body: 'x'.repeat(13 * 1024) } },
        { block_id: own.id, placeholder_values: { title: 'b' } },
      ],
    });
    // A minor revision: a new field whose default is 4 KB.
    const updated = await t.call('PUT', `/api/v1/blocks/${own.id}`, {
      key: user.key,
      body: { schema_content: [...fields, { name: 'note', type: 'text', default: 'n'.repeat(4096) }] },
    });
    expect(updated.status, updated.text).toBe(200);
    const [, outdated] = (await t.call('GET', `/api/v1/pages/${page.id}`, { key: user.key, query: { with_blocks: 1 } }))
      .body.blocks;
    const one = await t.call('POST', `/api/v1/pages/${page.id}/blocks/${outdated.id}/upgrade`, { key: user.key });
    expectOver(one, 'blocks[1].placeholder_values.note');
    const all = await t.call('POST', `/api/v1/pages/${page.id}/blocks/upgrade-all`, { key: user.key });
    expectOver(all, 'blocks[1].placeholder_values.note');
  });
});

describe('the default limit', () => {
  let d: TestApp;
  beforeAll(async () => {
    d = await startApp();
  });
  afterAll(() => d.close());

  it('takes a real page of 200 blocks with room to spare, and refuses one past 1 MiB', async () => {
    const u = await newUser(d);
    const s = await newSite(d, u);
    const b = await createBlock(d, u, { name: 'Text', template: '<p>{{ title }}</p>', schema_content: fields });
    // A long article's section each: a title and 2 KB of text, 400 KB in all.
    const section = (i: number) => ({
      block_id: b.id,
      placeholder_values: { title: `Section ${i}`, body: 'Lorem ipsum dolor sit amet. '.repeat(73) },
    });
    const real = await d.call('POST', '/api/v1/pages', {
      key: u.key,
      body: { name: 'Real', site_id: s.id, blocks: Array.from({ length: 200 }, (_, i) => section(i)) },
    });
    expect(real.status).toBe(201);
    const big = { block_id: b.id, placeholder_values: { title: 't', body: 'x'.repeat(300 * 1024) } };
    const over = await d.call('POST', '/api/v1/pages', {
      key: u.key,
      body: { name: 'Big', site_id: s.id, blocks: [big, big, big, big] },
    });
    expect(over.status).toBe(422);
    expect(over.body.errors[0]).toMatchObject({ path: 'blocks[3].placeholder_values.body', code: 'too_large' });
    expect(over.body.error).toContain('over its limit of 1048576 bytes');
  });
});
