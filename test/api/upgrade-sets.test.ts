/**
 * Issue 29, point 7: `POST /blocks/{id}/upgrades` applies the upgrade plan to
 * all the caller's pages (or the listed ones) at once, all or nothing, each
 * page gaining one version, and answers an upgrade set; `POST
 * /upgrade-sets/{id}/revert` restores each page to its version before the set,
 * a page changed since being a 409 at its path unless `force`. Both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, startWithTwoUsers, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';
import { checkIntegrity } from '../../src/db/integrity.js';
import { upgradeSetsRepository } from '../../src/db/repositories/upgrade-sets.repository.js';
import { StoredJson } from '../../src/shared/stored-json.js';

let t: TestApp, user: TestUser, other: TestUser, site: { id: number };

beforeAll(async () => ({ t, user, other, site } = await startWithTwoUsers()));
afterAll(() => t.close());

const fields = [{ name: 'title', type: 'string', required: true, max_length: 60 }];
const LONG = 'A title well over ten';

/** One: a long title and a short one; Two: two short ones. Then 1.1: max_length 10 and a new template. */
async function used(app: TestApp = t, who: TestUser = user, where = site) {
  const block = await createBlock(app, who, { name: 'Card', template: '<h2>{{ title }}</h2>', schema_content: fields });
  const on = (title: string) => ({ block_id: block.id, placeholder_values: { title } });
  const one = await createPage(app, who, { name: 'One', site_id: where.id, blocks: [on(LONG), on('Short')] });
  const two = await createPage(app, who, { name: 'Two', site_id: where.id, blocks: [on('Tiny'), on('Small')] });
  const next = await app.call('PUT', `/api/v1/blocks/${block.id}`, {
    key: who.key,
    body: { schema_content: [{ ...fields[0], max_length: 10 }], template: '<h3>{{ title }}</h3>' },
  });
  expect(next.body.version_bump).toBe('minor');
  return { block, one, two };
}

const upgrades = (id: number, body: unknown = {}, query: Record<string, number> = {}, who = user) =>
  t.call('POST', `/api/v1/blocks/${id}/upgrades`, { key: who.key, body, query });
const revert = (id: number, body: unknown = {}, who = user) =>
  t.call('POST', `/api/v1/upgrade-sets/${id}/revert`, { key: who.key, body });
const page = async (id: number) =>
  (await t.call('GET', `/api/v1/pages/${id}`, { key: user.key, query: { with_blocks: 1 } })).body;
const pins = async (id: number) =>
  (await page(id)).blocks.map((b: any) => [b.placeholder_values.title, `${b.version.major}.${b.version.minor}`]);

describe('upgrade everywhere', () => {
  it('moves every ready instance, one version a page, and lists the blocked ones', async () => {
    const { block, one, two } = await used();
    const r = await upgrades(block.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      block_id: block.id,
      to: { major: 1, minor: 1 },
      reverted_at: null,
      pages: [
        { page_id: one.id, version_before: one.version, version_after: one.version + 1, instances: 1 },
        { page_id: two.id, version_before: two.version, version_after: two.version + 1, instances: 2 },
      ],
      skipped: [{ id: one.blocks[0].id, page_id: one.id, from: { major: 1, minor: 0 }, blocked_by: ['values'] }],
    });
    expect(r.body.id).toEqual(expect.any(Number));
    expect(r.body.upgraded.map((u: any) => u.id)).toEqual([one.blocks[1].id, two.blocks[0].id, two.blocks[1].id]);
    expect(await pins(one.id)).toEqual([
      [LONG, '1.0'],
      ['Short', '1.1'],
    ]);
    expect(await pins(two.id)).toEqual([
      ['Tiny', '1.1'],
      ['Small', '1.1'],
    ]);
    const versions = await t.call('GET', `/api/v1/pages/${two.id}/versions`, { key: user.key });
    expect(versions.body.data.map((v: any) => v.number)).toEqual([two.version + 1, two.version]);
    expect(versions.body.data[0].summary).toBe('2 blocks changed');
    // Each page's row, instances, states and versions agree (the set writes them for all its pages at once).
    expect(await checkIntegrity(t.app.database.db)).toEqual([]);
    // Nothing left to move: no set, nothing written.
    const again = await upgrades(block.id);
    expect(again.body).toMatchObject({ id: null, pages: [], upgraded: [], skipped: [{ id: one.blocks[0].id }] });
    expect((await page(one.id)).version).toBe(one.version + 1);
  });

  it('dry_run answers the set and writes nothing; `pages` takes only those, a page with nothing to move is 422 at its place', async () => {
    const { block, one, two } = await used();
    const dry = await upgrades(block.id, {}, { dry_run: 1 });
    expect(dry.status).toBe(200);
    expect(dry.body.upgraded).toHaveLength(3);
    expect((await page(one.id)).version).toBe(one.version);
    expect(await pins(two.id)).toEqual([
      ['Tiny', '1.0'],
      ['Small', '1.0'],
    ]);

    const only = await upgrades(block.id, { pages: [two.id] });
    expect(only.body.pages.map((p: any) => p.page_id)).toEqual([two.id]);
    expect((await page(one.id)).version).toBe(one.version);
    const elsewhere = await createPage(t, user, { name: 'Empty', site_id: site.id });
    const refused = await upgrades(block.id, { pages: [one.id, elsewhere.id] });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: any) => e.path)).toEqual(['pages[1]']);
    const bad = await upgrades(block.id, { to: '9.9' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.path)).toEqual(['to']);
  });

  it("another user's block is refused; the set is the caller's alone", async () => {
    const { block } = await used();
    expect((await upgrades(block.id, {}, {}, other)).status).toBe(403);
    const set = await upgrades(block.id);
    expect((await revert(set.body.id, {}, other)).status).toBe(404);
    expect((await revert(999_999)).status).toBe(404);
  });
});

describe('all or nothing', () => {
  it('one page that cannot take the upgrade (over its JSON bound) leaves every page as it was', async () => {
    const small = await startApp({ env: { PAGE_JSON_LIMIT_KB: '2' } });
    try {
      const owner = await newUser(small);
      const where = await newSite(small, owner);
      const block = await createBlock(small, owner, {
        name: 'Card',
        template: '<h2>{{ title }}</h2>',
        schema_content: fields,
      });
      const on = (title: string) => ({ block_id: block.id, placeholder_values: { title } });
      const a = await createPage(small, owner, { name: 'A', site_id: where.id, blocks: [on('a')] });
      const b = await createPage(small, owner, { name: 'B', site_id: where.id, blocks: [on('b'), on('c'), on('d')] });
      // A new field's default of 600 characters: A takes one (under 2 KiB), B three (over).
      const withDefault = [...fields, { name: 'note', type: 'string', default: 'x'.repeat(600) }];
      await small.call('PUT', `/api/v1/blocks/${block.id}`, { key: owner.key, body: { schema_content: withDefault } });
      const r = await small.call('POST', `/api/v1/blocks/${block.id}/upgrades`, { key: owner.key, body: {} });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].path).toMatch(/^pages\[1\]\.blocks\[\d\]/);
      for (const p of [a, b]) {
        const now = (await small.call('GET', `/api/v1/pages/${p.id}`, { key: owner.key, query: { with_blocks: 1 } }))
          .body;
        expect(now.version).toBe(p.version);
        expect(now.blocks.every((x: any) => x.version.minor === 0)).toBe(true);
      }
    } finally {
      await small.close();
    }
  });
});

describe('all or nothing, inside the transaction', () => {
  it('a page whose instance moved since the plan was read is a conflict at its place: the pages before it are rolled back', async () => {
    const { block, one, two } = await used();
    const db = t.app.database.db;
    const target = await db
      .selectFrom('block_revisions')
      .select(['id', 'schema_content'])
      .where('block_id', '=', block.id)
      .where('minor', '=', 1)
      .executeTakeFirstOrThrow();
    const change = (pageBlockId: number, expectRevisionId: number, title: string) => ({
      pageBlockId,
      expectRevisionId,
      instance: {
        block_id: block.id,
        revision_id: target.id,
        version: { major: 1, minor: 1 },
        schema_snapshot: StoredJson.fromText<unknown[]>(target.schema_content),
        placeholder_values: { title },
        bindings: null,
        parent_page_block_id: null,
      },
    });
    const pinned = (id: number) =>
      db.selectFrom('page_blocks').select('revision_id').where('id', '=', id).executeTakeFirstOrThrow();
    const from = (await pinned(one.blocks[1].id)).revision_id;
    const sets = upgradeSetsRepository(t.app.database, { historyLimit: 100 });
    const attempt = sets.apply({
      ownerId: user.id,
      blockId: block.id,
      to: { major: 1, minor: 1 },
      pages: [
        { pageId: one.id, changes: [change(one.blocks[1].id, from, 'Short')] },
        // Read on another revision than the one it stands on: it moved since.
        { pageId: two.id, changes: [change(two.blocks[0].id, from + 1000, 'Tiny')] },
      ],
      now: new Date().toISOString(),
      by: { userId: user.id },
    });
    await expect(attempt).rejects.toMatchObject({ kind: 'conflict', errors: [{ path: 'pages[1]' }] });
    expect((await pinned(one.blocks[1].id)).revision_id).toBe(from);
    expect((await page(one.id)).version).toBe(one.version);
    const kept = await db.selectFrom('upgrade_sets').select('id').where('block_id', '=', block.id).execute();
    expect(kept).toEqual([]);
  });
});

describe('revert', () => {
  it('gives each page back its version before the set, as a new version; twice is a 409', async () => {
    const { block, one, two } = await used();
    const set = (await upgrades(block.id)).body;
    const r = await revert(set.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: set.id, pages: set.pages, reverted_at: expect.any(String) });
    for (const p of [one, two]) {
      const now = await page(p.id);
      expect(now.version).toBe(p.version + 2);
      expect(now.blocks.map((b: any) => [b.id, b.placeholder_values, b.version])).toEqual(
        p.blocks.map((b: any) => [b.id, b.placeholder_values, b.version]),
      );
    }
    const diff = await t.call('GET', `/api/v1/pages/${two.id}/versions/${two.version}/diff`, { key: user.key });
    expect(diff.body).toMatchObject({
      blocks: { added: [], removed: [], moved: [], pins: [] },
      values: [],
      metadata: [],
    });
    const twice = await revert(set.id);
    expect(twice.status).toBe(409);
  });

  it('a page changed since the set is a 409 at its place, nothing reverted; force reverts it', async () => {
    const { block, one, two } = await used();
    const set = (await upgrades(block.id)).body;
    const edited = await t.call('PUT', `/api/v1/pages/${two.id}/blocks/${two.blocks[0].id}`, {
      key: user.key,
      body: { placeholder_values: { title: 'Edited' } },
    });
    expect(edited.status).toBe(200);
    const refused = await revert(set.id);
    expect(refused.status).toBe(409);
    expect(refused.body.errors.map((e: any) => [e.path, e.code])).toEqual([['pages[1]', 'conflict']]);
    expect((await page(one.id)).version).toBe(one.version + 1);
    expect(await pins(two.id)).toEqual([
      ['Edited', '1.1'],
      ['Small', '1.1'],
    ]);
    const dry = await t.call('POST', `/api/v1/upgrade-sets/${set.id}/revert`, {
      key: user.key,
      body: { force: true },
      query: { dry_run: 1 },
    });
    expect(dry.status).toBe(200);
    expect((await page(one.id)).version).toBe(one.version + 1);
    const forced = await revert(set.id, { force: true });
    expect(forced.status).toBe(200);
    expect(await pins(one.id)).toEqual([
      [LONG, '1.0'],
      ['Short', '1.0'],
    ]);
    expect(await pins(two.id)).toEqual([
      ['Tiny', '1.0'],
      ['Small', '1.0'],
    ]);
  });
});

describe('over MCP', () => {
  it('upgrade_block_everywhere and revert_upgrade_set, each with dry_run', async () => {
    const { block, two } = await used();
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await t.call('POST', '/api/v1/mcp', {
        key: user.key,
        headers: { accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
      });
      return { error: r.body.result.isError === true, body: JSON.parse(r.body.result.content[0].text) };
    };
    const dry = await call('upgrade_block_everywhere', { id: block.id, dry_run: 1 });
    expect(dry.error).toBe(false);
    expect(dry.body.upgraded).toHaveLength(3);
    expect((await page(two.id)).version).toBe(two.version);
    const set = await call('upgrade_block_everywhere', { id: block.id, pages: [two.id] });
    expect(set.body.pages).toEqual([
      { page_id: two.id, version_before: two.version, version_after: two.version + 1, instances: 2 },
    ]);
    const dryRevert = await call('revert_upgrade_set', { id: set.body.id, dry_run: 1 });
    expect(dryRevert.error).toBe(false);
    expect((await page(two.id)).version).toBe(two.version + 1);
    const reverted = await call('revert_upgrade_set', { id: set.body.id });
    expect(reverted.body.reverted_at).toEqual(expect.any(String));
    expect(await pins(two.id)).toEqual([
      ['Tiny', '1.0'],
      ['Small', '1.0'],
    ]);
  });
});
