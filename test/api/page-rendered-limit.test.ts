/**
 * A page's HTML has a bound (2 Mi characters), and it is checked at write,
 * not only when the page is previewed or published: every write that could
 * grow a page renders it with its stub data on the shared pool, and one after
 * which the page would be over is a 422 at the place of the request that takes
 * it over. Issue 25: a 51-byte template made a page of 15.7 M characters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, storageOf, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

const LIMIT = 2 * 1024 * 1024;
/** 1,000 times its value: 800 K characters for a value of 800. */
const REPEAT = '{% for i in (1..1000) %}{{ s }}{% endfor %}';
const field = [{ name: 's', type: 'string' }];
const chars = (n: number) => 'y'.repeat(n);

let t: TestApp;
let user: TestUser;
let site: { id: number };
let repeat: { id: number };
let twice: { id: number };

beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  site = await newSite(t, user);
  repeat = await createBlock(t, user, { name: 'Repeat', template: REPEAT, schema_content: field });
  // A layout that shows its children twice: moving a block into it doubles the block's HTML.
  twice = await createBlock(t, user, { name: 'Twice', kind: 'layout', template: '{{ children }}{{ children }}' });
});
afterAll(() => t.close());

const big = (n = 800) => ({ block_id: repeat.id, placeholder_values: { s: chars(n) } });

function expectOver(r: { status: number; body: any }, path: string) {
  expect(r.status, JSON.stringify(r.body).slice(0, 500)).toBe(422);
  expect(r.body.errors).toHaveLength(1);
  expect(r.body.errors[0]).toMatchObject({ path, code: 'too_large' });
  // The page's HTML as it crosses, or one block's alone (a layout with its children).
  expect(r.body.error).toMatch(new RegExp(`(reaches|HTML is) \\d+ characters.*, over the limit of ${LIMIT}`));
}

const blocksOf = async (id: number) =>
  (await t.call('GET', `/api/v1/pages/${id}`, { key: user.key, query: { with_blocks: 1 } })).body.blocks;

describe("a page's rendered size, checked at write", () => {
  it('refuses a new page whose HTML would be over the bound, at the instance where it goes over', async () => {
    const over = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: { name: 'Big', site_id: site.id, blocks: [big(), big(), big()] },
    });
    expectOver(over, 'blocks[2]');
    const under = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: { name: 'Fits', site_id: site.id, blocks: [big(), big()] },
    });
    expect(under.status).toBe(201);
    // What was written previews within the bound.
    const preview = await t.call('GET', `/api/v1/pages/${under.body.id}/preview`, { key: user.key });
    expect(preview.status).toBe(200);
  });

  it('refuses a whole-set PUT, an added block, new values and a replacement that would take a page over', async () => {
    const page = await createPage(t, user, { name: 'Near', site_id: site.id, blocks: [big(), big(100)] });
    const [, small] = await blocksOf(page.id);
    const put = await t.call('PUT', `/api/v1/pages/${page.id}`, {
      key: user.key,
      body: { blocks: [big(), big(), big()] },
    });
    expectOver(put, 'blocks[2]');
    const added = await t.call('POST', `/api/v1/pages/${page.id}/blocks`, {
      key: user.key,
      body: { position: 0, blocks: [big(), big()] },
    });
    // The page goes over at its last instance, one the request did not send: named at what it sent.
    expectOver(added, 'blocks[0]');
    const values = await t.call('PUT', `/api/v1/pages/${page.id}/blocks/${small.id}`, {
      key: user.key,
      body: { placeholder_values: { s: chars(1400) } },
    });
    expectOver(values, 'placeholder_values');
    const replaced = await t.call('PUT', `/api/v1/pages/${page.id}/blocks/${small.id}/replace`, {
      key: user.key,
      body: { block_id: repeat.id, placeholder_values: { s: chars(1400) } },
    });
    expectOver(replaced, 'block_id');
    // Nothing was written.
    expect((await blocksOf(page.id)).map((b: any) => b.placeholder_values.s.length)).toEqual([800, 100]);
  });

  it('refuses a move into a layout that would take the page over', async () => {
    const page = await createPage(t, user, {
      name: 'Layout',
      site_id: site.id,
      blocks: [{ block_id: twice.id }, big(1200)],
    });
    const [layout, child] = await blocksOf(page.id);
    const moved = await t.call('PUT', `/api/v1/pages/${page.id}/blocks/${child.id}/move`, {
      key: user.key,
      body: { position: 1, parent_page_block_id: layout.id },
    });
    expectOver(moved, 'parent_page_block_id');
    // Within the bound, the same move is made.
    await t.call('PUT', `/api/v1/pages/${page.id}/blocks/${child.id}`, {
      key: user.key,
      body: { placeholder_values: { s: chars(500) } },
    });
    const fits = await t.call('PUT', `/api/v1/pages/${page.id}/blocks/${child.id}/move`, {
      key: user.key,
      body: { position: 1, parent_page_block_id: layout.id },
    });
    expect(fits.status).toBe(200);
  });

  it('refuses an upgrade whose new template would take the page over, at the instance in the page', async () => {
    const grows = await createBlock(t, user, { name: 'Grows', template: '<p>{{ s }}</p>', schema_content: field });
    const page = await createPage(t, user, {
      name: 'Upgraded',
      site_id: site.id,
      blocks: [big(), { block_id: grows.id, placeholder_values: { s: chars(1400) } }],
    });
    // The same fields, a template that repeats the value: a minor revision.
    const updated = await t.call('PUT', `/api/v1/blocks/${grows.id}`, { key: user.key, body: { template: REPEAT } });
    expect(updated.status, updated.text).toBe(200);
    const [, outdated] = await blocksOf(page.id);
    expect(outdated.update_status).not.toBe('up_to_date');
    const one = await t.call('POST', `/api/v1/pages/${page.id}/blocks/${outdated.id}/upgrade`, { key: user.key });
    expectOver(one, 'blocks[1]');
    const all = await t.call('POST', `/api/v1/pages/${page.id}/blocks/upgrade-all`, { key: user.key });
    expectOver(all, 'blocks[1]');
  });

  /**
   * A write's bound reads its revisions' template, CSS and JS from what the
   * process keeps by revision id (they never change); a block's new revision
   * comes under a new id and is read anew, by this instance and by another.
   */
  it("bounds the next page by its block's new template at once, through this instance and another", async () => {
    const other = await startApp({ storage: storageOf(t) });
    try {
      const block = await createBlock(t, user, { name: 'Grows', template: '<p>{{ s }}</p>', schema_content: field });
      const three = {
        name: 'Three',
        site_id: site.id,
        blocks: [1, 2, 3].map(() => ({ block_id: block.id, placeholder_values: { s: chars(800) } })),
      };
      // Both instances keep the first revision's assets.
      for (const app of [t, other])
        expect((await app.call('POST', '/api/v1/pages', { key: user.key, body: three })).status).toBe(201);
      const grown = await other.call('PUT', `/api/v1/blocks/${block.id}`, {
        key: user.key,
        body: { template: REPEAT },
      });
      expect(grown.status, grown.text).toBe(200);
      for (const app of [t, other])
        expectOver(await app.call('POST', '/api/v1/pages', { key: user.key, body: three }), 'blocks[2]');
      // And back to a small template: both take the page again.
      const shrunk = await t.call('PUT', `/api/v1/blocks/${block.id}`, {
        key: user.key,
        body: { template: '<b>{{ s }}</b>' },
      });
      expect(shrunk.status, shrunk.text).toBe(200);
      for (const app of [other, t])
        expect((await app.call('POST', '/api/v1/pages', { key: user.key, body: three })).status).toBe(201);
    } finally {
      await other.stop();
    }
  });
});
