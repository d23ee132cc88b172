/**
 * The kept answers of GET /pages/{id} are never stale. Every mutation that
 * changes a page's answer is made, then the next read must show it: through
 * the instance that keeps the answer, and through a second instance over the
 * same database (its own connection on SQLite, its own pool on PostgreSQL),
 * and on SQLite by another process writing the file. SQL written directly,
 * past the service, is page-read-direct-sql.test.ts'.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, storageOf, type TestApp } from '../support/app.js';
import { admin, newSite, newUser, type TestUser } from '../support/factories.js';
import { keptPageFixture } from '../support/kept-page.js';
import { createBlock, createPage, feedFields } from '../support/library.js';

let reader: TestApp;
let second: TestApp;
let user: TestUser;
let boss: TestUser;

beforeAll(async () => {
  reader = await startApp();
  user = await newUser(reader);
  boss = await admin(reader);
  second = await startApp({ storage: storageOf(reader) });
});
afterAll(async () => {
  await second.stop();
  await reader.close();
});

const read = async (t: TestApp, id: number, withBlocks = true) => {
  const r = await t.call('GET', `/api/v1/pages/${id}`, { key: user.key, query: withBlocks ? { with_blocks: 1 } : {} });
  return { status: r.status, text: r.text, body: r.body };
};

/** Reads twice (the second from what the reader keeps), so that a stale answer would be served next. */
const warm = async (id: number) => {
  await read(reader, id);
  await read(reader, id, false);
  expect((await read(reader, id)).text).toBe((await read(reader, id)).text);
};

/** The reader's answer, with and without blocks, is the writer's fresh one. */
const agree = async (id: number) => {
  for (const withBlocks of [true, false]) {
    const kept = await read(reader, id, withBlocks);
    expect(kept.status).toBe(200);
    expect(JSON.parse(kept.text)).toEqual(JSON.parse((await read(second, id, withBlocks)).text));
  }
  return (await read(reader, id)).body;
};

const fixture = () => keptPageFixture(reader, user, 'Coherent');

describe.each([
  ['the same instance', () => reader],
  ['a second instance', () => second],
])('a kept page read after a write through %s', (_name, writerOf) => {
  const call = (method: string, path: string, body?: unknown) =>
    writerOf().call(method, path, { key: user.key, ...(body !== undefined && { body }) });

  it('shows page fields, site and folder changes', async () => {
    const { page } = await fixture();
    await warm(page.id);
    expect((await call('PUT', `/api/v1/pages/${page.id}`, { name: 'Renamed', meta_title: 'T' })).status).toBe(200);
    expect(await agree(page.id)).toMatchObject({ name: 'Renamed', meta_title: 'T' });

    const other = await newSite(reader, user, 'Other site');
    await warm(page.id);
    expect((await call('PUT', `/api/v1/pages/${page.id}`, { site_id: other.id })).status).toBe(200);
    expect(await agree(page.id)).toMatchObject({ site_id: other.id });

    const folder = await call('POST', '/api/v1/folders', { site_id: other.id, name: 'Docs' });
    expect(folder.status).toBe(201);
    await warm(page.id);
    expect((await call('PUT', `/api/v1/pages/${page.id}`, { folder_id: folder.body.id })).status).toBe(200);
    expect(await agree(page.id)).toMatchObject({ folder_id: folder.body.id });
    // Deleting the folder moves its pages out of it: a write to another table.
    await warm(page.id);
    expect((await call('DELETE', `/api/v1/folders/${folder.body.id}`)).status).toBeLessThan(300);
    expect(await agree(page.id)).toMatchObject({ folder_id: null });
  });

  it('shows instance values, bindings, order, additions and removals', async () => {
    const { page, hero, layout } = await fixture();
    const [first, second_, third] = page.blocks.map((b) => b.id);
    await warm(page.id);
    expect(
      (await call('PUT', `/api/v1/pages/${page.id}/blocks/${first}`, { placeholder_values: { title: 'changed' } }))
        .status,
    ).toBe(200);
    expect((await agree(page.id)).blocks[0].placeholder_values).toEqual({ title: 'changed' });

    await warm(page.id);
    expect((await call('PUT', `/api/v1/pages/${page.id}/blocks/${second_}/move`, { position: 0 })).status).toBe(200);
    expect((await agree(page.id)).blocks.map((b: { id: number }) => b.id)).toEqual([second_, first, third]);

    await warm(page.id);
    const into = await call('PUT', `/api/v1/pages/${page.id}/blocks/${first}/move`, {
      position: 2,
      parent_page_block_id: third,
    });
    expect(into.status, into.text).toBe(200);
    expect((await agree(page.id)).blocks.find((b: { id: number }) => b.id === first).parent_page_block_id).toBe(third);

    const feed = await createBlock(reader, user, { name: 'Coherent feed', schema_content: feedFields });
    await warm(page.id);
    const added = await call('POST', `/api/v1/pages/${page.id}/blocks`, { blocks: [{ block_id: feed.id }] });
    expect(added.status, added.text).toBe(201);
    const fed = (await agree(page.id)).blocks.find((b: { block: { id: number } }) => b.block.id === feed.id);
    expect(fed).toBeDefined();

    await warm(page.id);
    const bound = await call('PUT', `/api/v1/pages/${page.id}/blocks/${fed.id}`, {
      bindings: { news: { source: 'articles.by_rubric', params: { category_id: 7, limit: 2 } } },
    });
    expect(bound.status, bound.text).toBe(200);
    expect((await agree(page.id)).blocks.find((b: { id: number }) => b.id === fed.id).bindings).toMatchObject({
      news: { source: 'articles.by_rubric' },
    });

    await warm(page.id);
    expect((await call('DELETE', `/api/v1/pages/${page.id}/blocks/${fed.id}`)).status).toBeLessThan(300);
    expect((await agree(page.id)).blocks).toHaveLength(3);

    // The whole set replaced by PUT.
    await warm(page.id);
    const replaced = await call('PUT', `/api/v1/pages/${page.id}`, {
      blocks: [{ block_id: layout.id }, { block_id: hero.id, placeholder_values: { title: 'only' } }],
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect((await agree(page.id)).blocks.map((b: { placeholder_values: unknown }) => b.placeholder_values)).toEqual([
      {},
      { title: 'only' },
    ]);
  });

  it('shows a block rename, a new revision (outdated flags) and an upgrade', async () => {
    const { page, hero } = await fixture();
    await warm(page.id);
    expect((await call('PUT', `/api/v1/blocks/${hero.id}`, { name: 'Hero renamed' })).status).toBe(200);
    expect((await agree(page.id)).blocks[0].block.name).toBe('Hero renamed');

    await warm(page.id);
    const revised = await call('PUT', `/api/v1/blocks/${hero.id}`, {
      schema_content: [
        { name: 'title', type: 'string' },
        { name: 'subtitle', type: 'string' },
      ],
    });
    expect(revised.status, revised.text).toBe(200);
    const outdated = await agree(page.id);
    expect(outdated.has_outdated_blocks).toBe(true);
    expect(outdated.blocks[0].update_status).not.toBe('up_to_date');

    await warm(page.id);
    const upgraded = await call('POST', `/api/v1/pages/${page.id}/blocks/upgrade-all`);
    expect(upgraded.status, upgraded.text).toBeLessThan(300);
    expect((await agree(page.id)).has_outdated_blocks).toBe(false);
  });

  it('shows a deprecation of a global block in use, and a deletion', async () => {
    const site = await newSite(reader, user);
    const created = await reader.call('POST', '/api/admin/blocks', {
      cookie: boss.cookie,
      body: { name: 'Coherent global', template: '<p></p>' },
    });
    expect(created.status).toBe(201);
    const page = await createPage(reader, user, {
      name: 'With global',
      site_id: site.id,
      blocks: [{ block_id: created.body.id }],
    });
    await warm(page.id);
    const deprecated = await writerOf().call('PUT', `/api/admin/blocks/${created.body.id}/deprecation`, {
      cookie: boss.cookie,
      body: { is_deprecated: true },
    });
    expect(deprecated.status).toBe(200);
    await agree(page.id);

    await warm(page.id);
    expect((await call('DELETE', `/api/v1/pages/${page.id}`)).status).toBe(204);
    expect((await read(reader, page.id)).status).toBe(404);
    expect((await read(reader, page.id, false)).status).toBe(404);
  });

  it('never serves a kept page to another user', async () => {
    const { page } = await fixture();
    await warm(page.id);
    const stranger = await newUser(reader);
    const r = await reader.call('GET', `/api/v1/pages/${page.id}`, { key: stranger.key, query: { with_blocks: 1 } });
    expect(r.status).toBe(404);
  });
});

describe.runIf(!process.env.DATABASE_URL)('a kept page read after another process writes the SQLite file', () => {
  it('shows the change', async () => {
    const { page } = await fixture();
    await warm(page.id);
    const file = join(reader.config.dataDir, 'pageblocks.sqlite');
    // A script on the file, as the migration CLI or a bulk import would be.
    const script = `const L = require('libsql'); const db = new L(process.argv[1]); db.pragma('busy_timeout = 5000'); db.prepare('update pages set name = ? where id = ?').run('Written outside', Number(process.argv[2])); db.close();`;
    await promisify(execFile)(process.execPath, ['-e', script, file, String(page.id)], { cwd: process.cwd() });
    expect((await read(reader, page.id)).body.name).toBe('Written outside');
    expect((await read(reader, page.id, false)).body.name).toBe('Written outside');
  });
});
