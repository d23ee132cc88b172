/**
 * A page's answer (GET /pages/{id} and the answers of page writes) is written
 * by hand from the stored JSON text (src/http/presenters/page-body.ts). Here it
 * must be, byte for byte, what the route's compiled serializer writes for the
 * page read the full way (every column, values parsed, presentPage), on pages
 * that hold what escaping and key order can get wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageBody } from '../../src/http/presenters/page-body.js';
import { presentPage } from '../../src/http/presenters/pages.presenter.js';
import { pagesRepository } from '../../src/db/repositories/pages/pages.repository.js';
import { emptyPageFields, type PageView } from '../../src/modules/pages/pages.js';
import { StoredJson } from '../../src/shared/stored-json.js';
import { lazySchemaCompilers } from '../../src/http/schema-compilers.js';
import { namedSchemas } from '../../src/http/schemas/common.js';
import { PageSchema } from '../../src/http/schemas/pages.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, feedFields } from '../support/library.js';

let t: TestApp;
let user: TestUser;
let siteId: number;
let rich: { id: number };
let feed: { id: number };
let columns: { id: number };

// The answer's serializer as the route compiles it (the Page schema, by reference).
const serialize = lazySchemaCompilers(namedSchemas()).serializer({
  schema: PageSchema,
  method: 'GET',
  url: '/pages/:id',
  httpStatus: '200',
}) as (data: unknown) => string;

/** The page read the full way and serialized by the schema, as the answers were built before. */
const expected = async (id: number, withBlocks: boolean) =>
  serialize(presentPage(await t.app.services.pages.get({ userId: user.id, isAdmin: false }, id, withBlocks)));

const read = (id: number, withBlocks: boolean) =>
  t.call('GET', `/api/v1/pages/${id}`, { key: user.key, query: withBlocks ? { with_blocks: 1 } : {} });

// Escapes, non-ASCII, separators JSON leaves alone, numbers JavaScript writes its own way.
// (A lone surrogate is left out: PostgreSQL's jsonb refuses it, a 500 today.)
const tricky = [
  'plain',
  'quote " backslash \\ slash / tab \t newline \n nul-free \u0001 \u001f',
  'é ü 漢字 🎉 \u2028 \u2029 </script>',
  'x'.repeat(41) + '"',
  'y'.repeat(4999),
  'z'.repeat(6000) + '\\',
];

const richFields = [
  { name: 'title', type: 'string' },
  { name: 'body', type: 'text' },
  { name: 'count', type: 'number' },
  { name: 'whole', type: 'integer' },
  { name: 'on', type: 'boolean' },
  { name: 'items', type: 'array', items: { type: 'object', fields: [{ name: 'caption', type: 'string' }] } },
  {
    name: 'nested',
    type: 'object',
    fields: [
      { name: 'zeta', type: 'string' },
      { name: 'a', type: 'string' },
    ],
  },
];

beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  siteId = (await newSite(t, user)).id;
  rich = await createBlock(t, user, { name: 'Rich "block" é', schema_content: richFields });
  feed = await createBlock(t, user, { name: 'Feed', schema_content: feedFields });
  columns = await createBlock(t, user, { name: 'Columns', kind: 'layout', template: '<div>{{ children }}</div>' });
});
afterAll(() => t.close());

const richValues = (i: number) => ({
  title: tricky[i % tricky.length],
  body: tricky[(i + 3) % tricky.length],
  count: [0.1, -0, 1e21, 123456789.125, -2.5e-7][i % 5],
  whole: [0, -7, 2147483647][i % 3],
  on: i % 2 === 0,
  items: [{ caption: tricky[(i + 1) % tricky.length] }, { caption: '' }],
  nested: { zeta: 'first, as written', a: tricky[i % tricky.length] },
});

async function check(id: number) {
  for (const withBlocks of [true, false]) {
    const r = await read(id, withBlocks);
    expect(r.status).toBe(200);
    expect(r.text).toBe(await expected(id, withBlocks));
  }
}

describe('the hand-written page answer', () => {
  it('is the serializer’s bytes for pages of every shape, read and written', async () => {
    const created = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: {
        name: tricky[1],
        site_id: siteId,
        meta_title: tricky[2],
        meta_description: tricky[3],
        meta_keywords: tricky[1],
        meta_robots: 'noindex',
        slug: 'a-b-1',
        blocks: [
          ...tricky.map((_, i) => ({ block_id: rich.id, placeholder_values: richValues(i) })),
          { block_id: feed.id, bindings: { news: { source: 'articles.latest', params: { limit: 2 } } } },
          { block_id: columns.id },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    // The write's own answer is the bytes a read gives after it.
    expect(created.text).toBe(await expected(created.body.id, true));
    await check(created.body.id);
    const page = created.body;

    // A child in a layout, outdated pins (a new revision of the block), a page without a site.
    const layout = page.blocks.at(-1).id;
    const added = await t.call('POST', `/api/v1/pages/${page.id}/blocks`, {
      key: user.key,
      body: { blocks: [{ block_id: rich.id, placeholder_values: richValues(2), parent_page_block_id: layout }] },
    });
    expect(added.status).toBe(201);
    expect(added.text).toBe(await expected(page.id, true));
    const revised = await t.call('PUT', `/api/v1/blocks/${rich.id}`, {
      key: user.key,
      body: { template: '<p>{{ title }}</p>' },
    });
    expect(revised.status).toBe(200);
    await check(page.id);
    expect(JSON.parse((await read(page.id, false)).text).has_outdated_blocks).toBe(true);

    const changed = await t.call('PUT', `/api/v1/pages/${page.id}/blocks/${page.blocks[0].id}`, {
      key: user.key,
      body: { placeholder_values: richValues(4) },
    });
    expect(changed.status).toBe(200);
    expect(changed.text).toBe(await expected(page.id, true));
    const moved = await t.call('PUT', `/api/v1/pages/${page.id}/blocks/${page.blocks[0].id}/move`, {
      key: user.key,
      body: { position: 3 },
    });
    expect(moved.text).toBe(await expected(page.id, true));
    const upgraded = await t.call('POST', `/api/v1/pages/${page.id}/blocks/${page.blocks[1].id}/upgrade`, {
      key: user.key,
    });
    expect(upgraded.status).toBe(200);
    expect(upgraded.text).toBe(await expected(page.id, true));
    const replaced = await t.call('PUT', `/api/v1/pages/${page.id}/blocks/${page.blocks[2].id}/replace`, {
      key: user.key,
      body: { block_id: rich.id, placeholder_values: richValues(6) },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.text).toBe(`{"id":${replaced.body.id},"page":${await expected(page.id, true)}}`);

    const updated = await t.call('PUT', `/api/v1/pages/${page.id}`, {
      key: user.key,
      body: { name: tricky[3], slug: null, meta_title: null },
    });
    expect(updated.text).toBe(await expected(page.id, true));
    const removed = await t.call('DELETE', `/api/sites/${siteId}`, { cookie: user.cookie });
    expect(removed.status).toBe(204);
    await check(page.id);
    expect(JSON.parse((await read(page.id, false)).text).site_id).toBeNull();
  });

  it('is the serializer’s bytes for an empty page, and a dry run answers its own rows', async () => {
    const site = await newSite(t, user, 'Second');
    const empty = await t.call('POST', '/api/v1/pages', { key: user.key, body: { name: 'Empty', site_id: site.id } });
    expect(empty.text).toContain('"blocks":[]');
    await check(empty.body.id);

    const dry = await t.call('POST', `/api/v1/pages/${empty.body.id}/blocks`, {
      key: user.key,
      query: { dry_run: 1 },
      body: { blocks: [{ block_id: rich.id, placeholder_values: richValues(1) }] },
    });
    expect(dry.status).toBe(201);
    expect(dry.body.blocks).toHaveLength(1);
    expect(dry.body.blocks[0].placeholder_values).toEqual(JSON.parse(JSON.stringify(richValues(1))));
    expect((await read(empty.body.id, true)).body.blocks).toEqual([]);
  });

  it('of a new page is built from its rows as a read gives them, pins behind their block included', async () => {
    // A page write pins current revisions, but a block may move on before its transaction:
    // the answer's statuses come from the transaction's own look at the library.
    const block = await createBlock(t, user, { name: 'Moving "on"', schema_content: richFields });
    for (const template of ['<p>{{ title }}</p>', '<p>{{ body }}</p>'])
      expect((await t.call('PUT', `/api/v1/blocks/${block.id}`, { key: user.key, body: { template } })).status).toBe(
        200,
      );
    const current = (await t.call('GET', `/api/v1/blocks/${block.id}`, { key: user.key })).body.current_revision;
    const pinned = (version: { major: number; minor: number }, i: number) => ({
      block_id: block.id,
      revision_id: current.id,
      version,
      schema_snapshot: StoredJson.of<unknown[]>(richFields),
      placeholder_values: richValues(i),
      bindings: i === 1 ? { news: { source: 'articles.latest', params: { limit: 2 } } } : null,
      parent_page_block_id: null,
    });
    const created = await pagesRepository(t.app.database).create({
      ownerId: user.id,
      kind: 'article',
      fields: {
        name: tricky[2]!,
        site_id: (await newSite(t, user, 'Fourth')).id,
        folder_id: null,
        slug: null,
        meta_title: null,
        meta_description: tricky[1]!,
        meta_keywords: null,
        meta_robots: null,
      },
      instances: [
        pinned(current.version, 0),
        pinned({ major: current.version.major, minor: current.version.minor - 1 }, 1),
        pinned({ major: current.version.major - 1, minor: 9 }, 2),
      ],
      now: new Date().toISOString(),
      by: { userId: user.id },
    });
    expect(created.blocks.map((b) => b.update_status)).toEqual(['up_to_date', 'outdated_minor', 'outdated_major']);
    expect(pageBody(created)).toBe(await expected(created.id, true));
  });

  it('of a page change (PUT, blocks added) is built from what it wrote, and is the bytes of the next read', async () => {
    const block = await createBlock(t, user, { name: 'Changing "on"', schema_content: richFields });
    const page = (
      await t.call('POST', '/api/v1/pages', {
        key: user.key,
        body: {
          name: 'Changed',
          site_id: (await newSite(t, user, 'Fifth')).id,
          blocks: [0, 1, 2].map((i) => ({ block_id: block.id, placeholder_values: richValues(i) })),
        },
      })
    ).body;
    // The page's instances fall behind their block: the answers' statuses and has_outdated_blocks must follow.
    const revised = await t.call('PUT', `/api/v1/blocks/${block.id}`, {
      key: user.key,
      body: { template: '<p>{{ body }}</p>' },
    });
    expect(revised.status).toBe(200);
    const sameAsNextRead = async (answer: { status: number; text: string }, status = 200) => {
      expect(answer.status, answer.text).toBe(status);
      expect(answer.text).toBe((await read(page.id, true)).text);
      expect(answer.text).toBe(await expected(page.id, true));
      return JSON.parse(answer.text);
    };
    const added = await sameAsNextRead(
      await t.call('POST', `/api/v1/pages/${page.id}/blocks`, {
        key: user.key,
        body: {
          position: 1,
          blocks: [
            { block_id: feed.id, bindings: { news: { source: 'articles.latest', params: { limit: 2 } } } },
            { block_id: block.id, placeholder_values: richValues(4) },
          ],
        },
      }),
      201,
    );
    expect(added.blocks.map((b: { order_index: number }) => b.order_index)).toEqual([0, 1, 2, 3, 4]);
    expect(added.blocks.map((b: { update_status: string }) => b.update_status)).toEqual([
      'outdated_minor',
      'up_to_date',
      'up_to_date',
      'outdated_minor',
      'outdated_minor',
    ]);
    expect(added.has_outdated_blocks).toBe(true);
    const renamed = await sameAsNextRead(
      await t.call('PUT', `/api/v1/pages/${page.id}`, { key: user.key, body: { name: tricky[2], meta_robots: 'x' } }),
    );
    expect(renamed.blocks).toHaveLength(5);
    const replaced = await sameAsNextRead(
      await t.call('PUT', `/api/v1/pages/${page.id}`, {
        key: user.key,
        body: { blocks: [3, 5].map((i) => ({ block_id: block.id, placeholder_values: richValues(i) })) },
      }),
    );
    expect(replaced.has_outdated_blocks).toBe(false);

    // Pins behind their block, written through the repository as a write whose library moved on meanwhile.
    const current = (await t.call('GET', `/api/v1/blocks/${block.id}`, { key: user.key })).body.current_revision;
    const behind = (i: number) => ({
      block_id: block.id,
      revision_id: current.id,
      version: { major: current.version.major, minor: current.version.minor - 1 },
      schema_snapshot: StoredJson.of<unknown[]>(richFields),
      placeholder_values: richValues(i),
      bindings: null,
      parent_page_block_id: null,
    });
    const pages = pagesRepository(t.app.database);
    const now = () => new Date().toISOString();
    const inserted = await pages.insertBlocks({
      pageId: page.id,
      position: 0,
      instances: [behind(1)],
      now: now(),
      by: { userId: user.id },
    });
    expect(inserted.has_outdated_blocks).toBe(true);
    expect(pageBody(inserted)).toBe(await expected(page.id, true));
    const rewritten = await pages.update({
      id: page.id,
      fields: { ...emptyPageFields(replaced.name), site_id: replaced.site_id },
      instances: [behind(2), behind(0)],
      now: now(),
      by: { userId: user.id },
    });
    expect(rewritten.blocks!.map((b) => b.update_status)).toEqual(['outdated_minor', 'outdated_minor']);
    expect(pageBody(rewritten)).toBe(await expected(page.id, true));
  });

  it('never shows another transaction’s uncommitted rows, and waits for it instead', async () => {
    const page = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: {
        name: 'Committed',
        site_id: (await newSite(t, user, 'Third')).id,
        blocks: [{ block_id: rich.id, placeholder_values: richValues(0) }],
      },
    });
    const actor = { userId: user.id, isAdmin: false };
    let during: Promise<PageView> | undefined;
    const rolledBack = new Error('rolled back');
    await expect(
      t.app.database.db.transaction().execute(async (trx) => {
        await trx.updateTable('pages').set({ name: 'Uncommitted' }).where('id', '=', page.body.id).execute();
        await trx.deleteFrom('page_blocks').where('page_id', '=', page.body.id).execute();
        // Asked while the transaction holds its rows (on SQLite, the one connection).
        during = t.app.services.pages.view(actor, page.body.id, true);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    const read = JSON.parse(pageBody((await during)!)) as Record<string, unknown>;
    expect(read).toMatchObject({
      name: 'Committed',
      blocks: [expect.objectContaining({ block: { id: rich.id, name: expect.any(String), kind: 'content' } })],
    });
  });
});
