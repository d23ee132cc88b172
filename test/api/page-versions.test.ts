import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage, heroFields } from '../support/library.js';

/*
 * Every successful write of a page makes exactly one version, in the write's
 * transaction; a dry run or a failed write makes none. The page's answers carry
 * its version number, and its latest version is the page as it stands.
 */

let t: TestApp;
let user: TestUser;
let site: { id: number };
let hero: { id: number };
let other: { id: number };

beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  site = await newSite(t, user);
  hero = await createBlock(t, user, { name: 'Hero', schema_content: heroFields });
  other = await createBlock(t, user, { name: 'Other', schema_content: heroFields });
});
afterAll(() => t.close());

const call = (method: string, path: string, body?: unknown, query?: Record<string, number>) =>
  t.call(method, path, { key: user.key, ...(body !== undefined && { body }), ...(query && { query }) });
const read = async (id: number) => (await call('GET', `/api/v1/pages/${id}`, undefined, { with_blocks: 1 })).body;

/** The page's versions as stored: their numbers, and the latest one's instances against the page's own rows. */
async function stored(pageId: number) {
  const { db } = t.app.database;
  const versions = await db
    .selectFrom('page_versions')
    .selectAll()
    .where('page_id', '=', pageId)
    .orderBy('number')
    .execute();
  const latest = versions.at(-1)!;
  const list = JSON.parse(latest.blocks) as Array<[number, number]>;
  const states = list.length
    ? await db
        .selectFrom('page_block_states')
        .selectAll()
        .where(
          'id',
          'in',
          list.map(([, s]) => s),
        )
        .execute()
    : [];
  const byId = new Map(states.map((s) => [s.id, s]));
  const rows = await db
    .selectFrom('page_blocks')
    .selectAll()
    .where('page_id', '=', pageId)
    .orderBy('order_index')
    .execute();
  const asItWas = list.map(([id, s]) => {
    const state = byId.get(s)!;
    return {
      id,
      revision_id: state.revision_id,
      parent: state.parent_page_block_id,
      values: JSON.parse(state.placeholder_values),
      bindings: state.bindings === null ? null : JSON.parse(state.bindings),
    };
  });
  const asItIs = rows.map((r) => ({
    id: r.id,
    revision_id: r.revision_id,
    parent: r.parent_page_block_id,
    values: JSON.parse(r.placeholder_values),
    bindings: r.bindings === null ? null : JSON.parse(r.bindings),
  }));
  return { numbers: versions.map((v) => v.number), latest, asItWas, asItIs };
}

const statesOf = async (pageId: number) =>
  Number(
    (
      await t.app.database.db
        .selectFrom('page_block_states')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('page_id', '=', pageId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('page versions', () => {
  it('every successful write makes exactly one, numbered 1, 2, ...; the answer carries it', async () => {
    const page = await createPage(t, user, {
      name: 'Versioned',
      site_id: site.id,
      blocks: [{ block_id: hero.id, placeholder_values: { title: 'One' } }],
    });
    expect(page.version).toBe(1);
    let expected = 1;
    const check = async (answerVersion?: number) => {
      expected++;
      if (answerVersion !== undefined) expect(answerVersion).toBe(expected);
      const now = await read(page.id);
      expect(now.version).toBe(expected);
      const s = await stored(page.id);
      expect(s.numbers).toEqual(Array.from({ length: expected }, (_, i) => i + 1));
      expect(s.asItWas).toEqual(s.asItIs);
      expect(s.latest).toMatchObject({ name: now.name, slug: now.slug, meta_title: now.meta_title });
      return now;
    };

    const put = await call('PUT', `/api/v1/pages/${page.id}`, { name: 'Renamed', meta_title: 'T' });
    await check(put.body.version);
    const whole = await call('PUT', `/api/v1/pages/${page.id}`, {
      blocks: [
        { block_id: hero.id, placeholder_values: { title: 'A' } },
        { block_id: other.id, placeholder_values: { title: 'B' } },
      ],
    });
    await check(whole.body.version);
    const added = await call('POST', `/api/v1/pages/${page.id}/blocks`, {
      blocks: [{ block_id: hero.id, placeholder_values: { title: 'C' } }],
      position: 1,
    });
    expect(added.status).toBe(201);
    const afterAdd = await check(added.body.version);
    const [a, c, b] = afterAdd.blocks.map((x: any) => x.id);
    const values = await call('PUT', `/api/v1/pages/${page.id}/blocks/${c}`, {
      placeholder_values: { title: 'C2', items: [{ caption: 'x' }] },
    });
    await check(values.body.version);
    const moved = await call('PUT', `/api/v1/pages/${page.id}/blocks/${a}/move`, { position: 2 });
    await check(moved.body.version);
    await call('PUT', `/api/v1/blocks/${hero.id}`, { template: '<h2>{{ title }}</h2>' });
    const upgraded = await call('POST', `/api/v1/pages/${page.id}/blocks/${a}/upgrade`);
    expect(upgraded.status).toBe(200);
    await check();
    const all = await call('POST', `/api/v1/pages/${page.id}/blocks/upgrade-all`);
    expect(all.status).toBe(200);
    await check();
    const replaced = await call('PUT', `/api/v1/pages/${page.id}/blocks/${b}/replace`, {
      block_id: hero.id,
      placeholder_values: { title: 'R' },
    });
    expect(replaced.status).toBe(200);
    await check();
    const removed = await call('DELETE', `/api/v1/pages/${page.id}/blocks/${c}`);
    expect(removed.status).toBe(204);
    await check();
  });

  it('a dry run or a failed write makes none', async () => {
    const page = await createPage(t, user, {
      name: 'Still',
      site_id: site.id,
      blocks: [{ block_id: hero.id, placeholder_values: { title: 'One' } }],
    });
    const pb = page.blocks[0].id;
    const dry = { dry_run: 1 };
    const dryPut = await call('PUT', `/api/v1/pages/${page.id}`, { name: 'Dry' }, dry);
    expect(dryPut.body.version).toBe(2);
    expect(
      (await call('PUT', `/api/v1/pages/${page.id}/blocks/${pb}`, { placeholder_values: { title: 'D' } }, dry)).status,
    ).toBe(200);
    expect((await call('DELETE', `/api/v1/pages/${page.id}/blocks/${pb}`, undefined, dry)).status).toBe(204);
    // Refused: a value the block does not take, an instance not on the page, a taken slug, an upgrade of nothing.
    expect((await call('PUT', `/api/v1/pages/${page.id}/blocks/${pb}`, { placeholder_values: {} })).status).toBe(400);
    expect((await call('DELETE', `/api/v1/pages/${page.id}/blocks/999999`)).status).toBe(404);
    await createPage(t, user, { name: 'Taken', site_id: site.id, slug: 'taken' });
    // The unique index refuses this one inside the write's transaction.
    expect((await call('PUT', `/api/v1/pages/${page.id}`, { slug: 'taken' })).status).toBe(409);
    expect((await call('POST', `/api/v1/pages/${page.id}/blocks/${pb}/upgrade`)).status).toBe(422);
    expect((await read(page.id)).version).toBe(1);
    expect((await stored(page.id)).numbers).toEqual([1]);
    const dryCreate = await call('POST', '/api/v1/pages', { name: 'Never', site_id: site.id }, dry);
    expect(dryCreate.status).toBe(201);
    expect(dryCreate.body.version).toBe(1);
    const versions = await t.app.database.db
      .selectFrom('page_versions')
      .select('page_id')
      .where('page_id', '=', dryCreate.body.id)
      .execute();
    expect(versions).toEqual([]);
  });

  it('a change of one value of a 200-block page writes one state, not 200', async () => {
    const blocks = Array.from({ length: 200 }, (_, i) => ({
      block_id: hero.id,
      placeholder_values: { title: `Block ${i}`, items: [{ caption: `caption of block ${i}` }] },
    }));
    const page = await createPage(t, user, { name: 'Big', site_id: site.id, blocks });
    expect(await statesOf(page.id)).toBe(200);
    const pb = page.blocks[117].id;
    const r = await call('PUT', `/api/v1/pages/${page.id}/blocks/${pb}`, {
      placeholder_values: { title: 'Changed', items: [{ caption: 'new' }] },
    });
    expect(r.status).toBe(200);
    expect(await statesOf(page.id)).toBe(201);
    const s = await stored(page.id);
    expect(s.asItWas).toEqual(s.asItIs);
    expect(s.latest.summary).toBe('1 block changed');
    // A move changes the order only: no state at all.
    await call('PUT', `/api/v1/pages/${page.id}/blocks/${pb}/move`, { position: 0 });
    expect(await statesOf(page.id)).toBe(201);
    expect((await stored(page.id)).latest.summary).toBe('1 block moved');
  });
});
