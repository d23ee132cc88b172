import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { admin, newUser, type TestUser } from '../support/factories.js';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let boss: TestUser;

beforeAll(async () => {
  t = await startApp();
  owner = await newUser(t);
  stranger = await newUser(t);
  boss = await admin(t);
});
afterAll(() => t.close());

const block = async (user: TestUser, body: Record<string, unknown>) => {
  const r = await t.call('POST', '/api/v1/blocks', { key: user.key, body: { template: 'x', ...body } });
  if (r.status !== 201) throw new Error(`${r.status} ${r.text}`);
  return r.body as { id: number; name: string };
};
const globalBlock = async (body: Record<string, unknown>) => {
  const r = await t.call('POST', '/api/admin/blocks', { cookie: boss.cookie, body: { template: 'x', ...body } });
  if (r.status !== 201) throw new Error(`${r.status} ${r.text}`);
  return r.body as { id: number; name: string };
};
const names = (r: { body: { data: { name: string }[] } }) => r.body.data.map((b) => b.name);

describe('full-text search', () => {
  it('ranks a name match first, then description, then docs, the same on both databases', async () => {
    await block(owner, {
      name: 'Plain footer',
      description: 'Shows a walrus portrait in the corner',
      docs: 'nothing else',
    });
    await block(owner, { name: 'Walrus banner', description: 'a big banner', docs: 'nothing else' });
    await block(owner, { name: 'Side column', description: 'a column', docs: 'Explains how a walrus is drawn' });
    const r = await t.call('GET', '/api/v1/search/blocks', { key: owner.key, query: { q: 'walrus' } });
    expect(r.status).toBe(200);
    expect(names(r)).toEqual(['Walrus banner', 'Plain footer', 'Side column']);
    expect(r.body).toMatchObject({ total: 3, limit: 50, offset: 0 });
  });

  it('matches word prefixes and all words, and pages', async () => {
    await block(owner, { name: 'Pelican gallery grid' });
    await block(owner, { name: 'Pelican quote' });
    expect(
      names(await t.call('GET', '/api/v1/search/blocks', { key: owner.key, query: { q: 'pelic' } })).sort(),
    ).toEqual(['Pelican gallery grid', 'Pelican quote']);
    expect(
      names(await t.call('GET', '/api/v1/search/blocks', { key: owner.key, query: { q: 'pelican grid' } })),
    ).toEqual(['Pelican gallery grid']);
    const paged = await t.call('GET', '/api/v1/search/blocks', {
      key: owner.key,
      query: { q: 'pelican', limit: 1, offset: 1 },
    });
    expect(paged.body.total).toBe(2);
    expect(paged.body.data).toHaveLength(1);
    // Past the end: no row, and still the total.
    const beyond = await t.call('GET', '/api/v1/search/blocks', {
      key: owner.key,
      query: { q: 'pelican', limit: 1, offset: 5 },
    });
    expect(beyond.body).toMatchObject({ data: [], total: 2, offset: 5 });
    // The total counts only what this key may see, not other users' private matches.
    await block(stranger, { name: 'Pelican of another user' });
    expect(
      (await t.call('GET', '/api/v1/search/blocks', { key: owner.key, query: { q: 'pelican', limit: 1 } })).body.total,
    ).toBe(2);
  });

  it('keeps the index current on every change', async () => {
    const b = await block(owner, { name: 'Narwhal card' });
    await t.call('PUT', `/api/v1/blocks/${b.id}`, { key: owner.key, body: { name: 'Dolphin card' } });
    expect((await t.call('GET', '/api/v1/search/blocks', { key: owner.key, query: { q: 'narwhal' } })).body.total).toBe(
      0,
    );
    expect(names(await t.call('GET', '/api/v1/search/blocks', { key: owner.key, query: { q: 'dolphin' } }))).toEqual([
      'Dolphin card',
    ]);
    await t.call('DELETE', `/api/v1/blocks/${b.id}`, { key: owner.key });
    expect((await t.call('GET', '/api/v1/search/blocks', { key: owner.key, query: { q: 'dolphin' } })).body.total).toBe(
      0,
    );
  });

  it('shows only blocks visible to the key', async () => {
    await block(stranger, { name: 'Secret axolotl' });
    await globalBlock({ name: 'Public axolotl' });
    expect(names(await t.call('GET', '/api/v1/search/blocks', { key: owner.key, query: { q: 'axolotl' } }))).toEqual([
      'Public axolotl',
    ]);
  });

  it.each([
    [{ q: 'a' }, 'q'],
    [{}, 'q'],
    [{ q: '!!' }, 'q'],
    [{ q: 'ok', limit: 500 }, 'limit'],
  ])('refuses %j at %s', async (query, path) => {
    const r = await t.call('GET', '/api/v1/search/blocks', { key: owner.key, query });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].path).toBe(path);
  });

  it('treats search syntax as plain words', async () => {
    const r = await t.call('GET', '/api/v1/search/blocks', { key: owner.key, query: { q: '"walrus" OR NEAR(* -x' } });
    expect(r.status).toBe(200);
  });
});

describe('search ranked and counted inside the index', () => {
  const search = async (user: TestUser, query: Record<string, string | number>) => {
    const r = await t.call('GET', '/api/v1/search/blocks', { key: user.key, query });
    expect(r.status).toBe(200);
    return { names: names(r), total: r.body.total as number };
  };

  it('pages through the visible matches when better-ranked ones belong to someone else', async () => {
    // Another user's name matches outrank the owner's docs matches: the ranking inside the
    // index has to look past them, and the count leaves them out.
    for (let i = 0; i < 7; i++) await block(stranger, { name: `Quokka ${i}` });
    for (let i = 0; i < 5; i++) await block(owner, { name: `Card ${i}`, docs: `A quokka ${'long text '.repeat(i)}` });
    const all = await search(owner, { q: 'quokka' });
    expect(all).toEqual({ names: ['Card 0', 'Card 1', 'Card 2', 'Card 3', 'Card 4'], total: 5 });
    expect(await search(owner, { q: 'quokka', limit: 2, offset: 1 })).toEqual({
      names: ['Card 1', 'Card 2'],
      total: 5,
    });
    expect(await search(owner, { q: 'quokka', limit: 2, offset: 4 })).toEqual({ names: ['Card 4'], total: 5 });
    expect((await search(stranger, { q: 'quokka' })).total).toBe(7);
  });

  it('follows deprecation, and a change of scope or owner made outside the service', async () => {
    const shared = await globalBlock({ name: 'Wombat hero' });
    const mine = await block(owner, { name: 'Wombat card' });
    expect(await search(stranger, { q: 'wombat' })).toEqual({ names: ['Wombat hero'], total: 1 });

    const deprecated = await t.call('PUT', `/api/admin/blocks/${shared.id}/deprecation`, {
      cookie: boss.cookie,
      body: { is_deprecated: true },
    });
    expect(deprecated.status).toBe(200);
    expect(await search(stranger, { q: 'wombat' })).toEqual({ names: [], total: 0 });
    expect(await search(owner, { q: 'wombat' })).toEqual({ names: ['Wombat card'], total: 1 });
    await t.call('PUT', `/api/admin/blocks/${shared.id}/deprecation`, {
      cookie: boss.cookie,
      body: { is_deprecated: false },
    });
    expect((await search(stranger, { q: 'wombat' })).total).toBe(1);

    // No route moves a block between scopes or owners; a script on the database might.
    const db = t.app.database.db;
    await db.updateTable('blocks').set({ owner_id: stranger.id }).where('id', '=', mine.id).execute();
    expect(await search(owner, { q: 'wombat' })).toEqual({ names: ['Wombat hero'], total: 1 });
    expect(await search(stranger, { q: 'wombat' })).toEqual({ names: ['Wombat hero', 'Wombat card'], total: 2 });
    await db.updateTable('blocks').set({ scope: 'global' }).where('id', '=', mine.id).execute();
    expect((await search(owner, { q: 'wombat' })).total).toBe(2);
    await db.updateTable('blocks').set({ scope: 'user' }).where('id', '=', shared.id).execute();
    expect(await search(stranger, { q: 'wombat' })).toEqual({ names: ['Wombat card'], total: 1 });
  });
});

describe('search rows read in the search statement', () => {
  it('shows each block as its own read does: tags in id order, the viewer’s favorite, the current revision', async () => {
    const boss2 = await admin(t);
    const tag = async (name: string) =>
      (await t.call('POST', '/api/admin/tags', { cookie: boss2.cookie, body: { name } })).body as { id: number };
    const first = await tag('Ibis first');
    const second = await tag('Ibis second');
    const tagged = await block(owner, {
      name: 'Ibis hero',
      tags: [second.id, first.id],
      schema_content: [{ name: 'title', type: 'string' }],
    });
    const revised = await block(owner, { name: 'Ibis card', description: 'ibis' });
    expect(
      (await t.call('PUT', `/api/v1/blocks/${revised.id}`, { key: owner.key, body: { template: '<p>ibis 2</p>' } }))
        .status,
    ).toBe(200);
    await block(owner, { name: 'Plain block', docs: 'an ibis in the docs' });
    // Text that JSON escapes, however the database hands the rows over.
    await block(owner, { name: 'Ibis "quoted" \\ é 😀', description: 'a line\nand a\ttab </script>' });
    const shared = await globalBlock({ name: 'Ibis global' });
    expect((await t.call('PUT', `/api/v1/blocks/${shared.id}/favorite`, { key: owner.key })).status).toBe(204);

    for (const user of [owner, stranger]) {
      const found = await t.call('GET', '/api/v1/search/blocks', { key: user.key, query: { q: 'ibis' } });
      expect(found.status).toBe(200);
      const reads = await Promise.all(
        found.body.data.map(
          async (b: { id: number }) => (await t.call('GET', `/api/v1/blocks/${b.id}`, { key: user.key })).body,
        ),
      );
      expect(found.body.data).toEqual(reads);
      expect(found.body.total).toBe(user === owner ? 5 : 1);
    }
    const mine = (await t.call('GET', '/api/v1/search/blocks', { key: owner.key, query: { q: 'ibis' } })).body.data;
    expect(mine.find((b: { id: number }) => b.id === tagged.id).tags).toEqual(
      [first.id, second.id].sort((a, b) => a - b),
    );
    expect(mine.find((b: { id: number }) => b.id === shared.id).is_favorite).toBe(true);
    expect(mine.find((b: { id: number }) => b.id === revised.id)).toMatchObject({
      is_favorite: false,
      current_revision: { template_content: '<p>ibis 2</p>' },
    });
  });
});

describe('collections', () => {
  it('keeps a personal collection of own and global blocks, ignoring duplicates, in order', async () => {
    const mine = await block(owner, { name: 'C1' });
    const shared = await globalBlock({ name: 'C2' });
    const created = await t.call('POST', '/api/v1/collections', { key: owner.key, body: { name: 'Landing kit' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Landing kit', scope: 'user', block_ids: [] });
    const id = created.body.id;
    const added = await t.call('POST', `/api/v1/collections/${id}/blocks`, {
      key: owner.key,
      body: { block_ids: [mine.id, shared.id, mine.id] },
    });
    expect(added.status).toBe(200);
    expect(added.body.collection.block_ids).toEqual([mine.id, shared.id]);
    const again = await t.call('POST', `/api/v1/collections/${id}/blocks`, {
      key: owner.key,
      body: { block_ids: [shared.id] },
    });
    expect(again.body.collection.block_ids).toEqual([mine.id, shared.id]);
    const reordered = await t.call('PUT', `/api/v1/collections/${id}/blocks/order`, {
      key: owner.key,
      body: { block_ids: [shared.id, mine.id] },
    });
    expect(reordered.body.collection.block_ids).toEqual([shared.id, mine.id]);
    expect((await t.call('GET', `/api/v1/collections/${id}`, { key: stranger.key })).status).toBe(403);
  });

  it('refuses an order that is not a permutation and an unavailable block, changing nothing', async () => {
    const a = await block(owner, { name: 'P1' });
    const b = await block(owner, { name: 'P2' });
    const foreign = await block(stranger, { name: 'Not yours' });
    const id = (await t.call('POST', '/api/v1/collections', { key: owner.key, body: { name: 'Kit' } })).body.id;
    await t.call('POST', `/api/v1/collections/${id}/blocks`, { key: owner.key, body: { block_ids: [a.id, b.id] } });
    for (const order of [[a.id], [a.id, a.id], [a.id, b.id, 999999]]) {
      const r = await t.call('PUT', `/api/v1/collections/${id}/blocks/order`, {
        key: owner.key,
        body: { block_ids: order },
      });
      expect(r.status).toBe(400);
      expect(r.body.errors[0].path).toBe('block_ids');
    }
    const bad = await t.call('POST', `/api/v1/collections/${id}/blocks`, {
      key: owner.key,
      body: { block_ids: [b.id, foreign.id, 999999] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['block_ids[1]', 'block_ids[2]']);
    expect((await t.call('GET', `/api/v1/collections/${id}`, { key: owner.key })).body.block_ids).toEqual([a.id, b.id]);
  });

  it('keeps global collections to global blocks and to administrators', async () => {
    const created = await t.call('POST', '/api/admin/collections', {
      cookie: boss.cookie,
      body: { name: 'Staff picks' },
    });
    expect(created.status).toBe(201);
    expect(created.body.scope).toBe('global');
    const id = created.body.id;
    const privateOne = await block(boss, { name: 'Admin private' });
    const shared = await globalBlock({ name: 'Pick' });
    const refused = await t.call('POST', `/api/v1/collections/${id}/blocks`, {
      key: boss.key,
      body: { block_ids: [privateOne.id] },
    });
    expect(refused.status).toBe(422);
    expect(
      (await t.call('POST', `/api/v1/collections/${id}/blocks`, { key: boss.key, body: { block_ids: [shared.id] } }))
        .status,
    ).toBe(200);
    expect(
      (await t.call('POST', `/api/v1/collections/${id}/blocks`, { key: owner.key, body: { block_ids: [shared.id] } }))
        .status,
    ).toBe(403);
    expect((await t.call('POST', '/api/admin/collections', { cookie: owner.cookie, body: { name: 'x' } })).status).toBe(
      403,
    );
    const visible = await t.call('GET', '/api/v1/collections', { key: stranger.key });
    expect(visible.body.data.map((c: { id: number }) => c.id)).toContain(id);
  });
});

describe('block submissions', () => {
  it('runs submit → approve, making a global copy while the block stays private', async () => {
    const mine = await block(owner, {
      name: 'Candidate',
      template: '<p>{{ text }}</p>',
      schema_content: [{ name: 'text', type: 'string' }],
    });
    const submitted = await t.call('POST', `/api/v1/blocks/${mine.id}/submit`, { key: owner.key });
    expect(submitted.status).toBe(201);
    expect(submitted.body).toMatchObject({ block_id: mine.id, status: 'pending', decided_at: null });
    const twice = await t.call('POST', `/api/v1/blocks/${mine.id}/submit`, { key: owner.key });
    expect(twice.status).toBe(409);
    expect((await t.call('GET', '/api/v1/block-submissions', { key: owner.key })).body.total).toBe(1);

    const pending = await t.call('GET', '/api/admin/block-submissions', {
      cookie: boss.cookie,
      query: { status: 'pending' },
    });
    expect(pending.body.data.map((s: { id: number }) => s.id)).toContain(submitted.body.id);
    const approved = await t.call('POST', `/api/admin/block-submissions/${submitted.body.id}/approve`, {
      cookie: boss.cookie,
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'approved',
      approved_block_id: expect.any(Number),
      decided_at: expect.any(String),
    });

    const copy = await t.call('GET', `/api/v1/blocks/${approved.body.approved_block_id}`, { key: stranger.key });
    expect(copy.body).toMatchObject({
      name: 'Candidate',
      scope: 'global',
      version: { major: 1, minor: 0 },
      current_revision: { template_content: '<p>{{ text }}</p>' },
    });
    expect((await t.call('GET', `/api/v1/blocks/${mine.id}`, { key: owner.key })).body.scope).toBe('user');
    const again = await t.call('POST', `/api/admin/block-submissions/${submitted.body.id}/approve`, {
      cookie: boss.cookie,
    });
    expect(again.status).toBe(409);
  });

  it('rejects with a reason, withdraws only pending ones, and keeps decisions to administrators', async () => {
    const mine = await block(owner, { name: 'Maybe' });
    const s1 = (await t.call('POST', `/api/v1/blocks/${mine.id}/submit`, { key: owner.key })).body;
    expect(
      (await t.call('POST', `/api/admin/block-submissions/${s1.id}/approve`, { cookie: owner.cookie })).status,
    ).toBe(403);
    const noReason = await t.call('POST', `/api/admin/block-submissions/${s1.id}/reject`, {
      cookie: boss.cookie,
      body: {},
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors[0].path).toBe('reason');
    const rejected = await t.call('POST', `/api/admin/block-submissions/${s1.id}/reject`, {
      cookie: boss.cookie,
      body: { reason: 'Too specific' },
    });
    expect(rejected.body).toMatchObject({ status: 'rejected', reason: 'Too specific' });
    expect((await t.call('DELETE', `/api/v1/block-submissions/${s1.id}`, { key: owner.key })).status).toBe(409);

    const s2 = (await t.call('POST', `/api/v1/blocks/${mine.id}/submit`, { key: owner.key })).body;
    expect((await t.call('DELETE', `/api/v1/block-submissions/${s2.id}`, { key: stranger.key })).status).toBe(404);
    expect((await t.call('DELETE', `/api/v1/block-submissions/${s2.id}`, { key: owner.key })).status).toBe(204);
    expect(
      (await t.call('GET', '/api/v1/block-submissions', { key: owner.key })).body.data.map((s: { id: number }) => s.id),
    ).not.toContain(s2.id);
  });

  it('refuses to submit a foreign block, a global one, or one without content', async () => {
    const foreign = await block(stranger, { name: 'Theirs' });
    expect((await t.call('POST', `/api/v1/blocks/${foreign.id}/submit`, { key: owner.key })).status).toBe(403);
    const shared = await globalBlock({ name: 'Already global' });
    expect((await t.call('POST', `/api/v1/blocks/${shared.id}/submit`, { key: owner.key })).status).toBe(422);
    const bare = (await t.call('POST', '/api/v1/blocks', { key: owner.key, body: { name: 'Bare' } })).body;
    expect((await t.call('POST', `/api/v1/blocks/${bare.id}/submit`, { key: owner.key })).status).toBe(422);
  });
});

describe('tags in search and lists', () => {
  it('finds blocks by tag name, filters by all given tags, and follows renames and deletions', async () => {
    const boss2 = await admin(t);
    const tag = async (name: string) =>
      (await t.call('POST', '/api/admin/tags', { cookie: boss2.cookie, body: { name } })).body as { id: number };
    const hero = await tag('Heroics');
    const promo = await tag('Promotion');
    const both = await block(owner, { name: 'Banner A', tags: [hero.id, promo.id] });
    await block(owner, { name: 'Banner B', tags: [hero.id] });
    const r = await t.call('GET', '/api/v1/blocks', { key: owner.key, query: { tags: `${hero.id},${promo.id}` } });
    expect(r.body.data.map((b: { id: number }) => b.id)).toEqual([both.id]);
    expect((await t.call('GET', '/api/v1/blocks', { key: owner.key, query: { tags: 'one,two' } })).status).toBe(400);
    expect(
      names(await t.call('GET', '/api/v1/search/blocks', { key: owner.key, query: { q: 'heroics' } })).sort(),
    ).toEqual(['Banner A', 'Banner B']);

    await t.call('PUT', `/api/admin/tags/${hero.id}`, { cookie: boss2.cookie, body: { name: 'Gallantry' } });
    expect((await t.call('GET', '/api/v1/search/blocks', { key: owner.key, query: { q: 'heroics' } })).body.total).toBe(
      0,
    );
    expect(
      names(await t.call('GET', '/api/v1/search/blocks', { key: owner.key, query: { q: 'gallantry' } })).sort(),
    ).toEqual(['Banner A', 'Banner B']);
    await t.call('DELETE', `/api/admin/tags/${promo.id}`, { cookie: boss2.cookie });
    expect(
      (await t.call('GET', '/api/v1/search/blocks', { key: owner.key, query: { q: 'promotion' } })).body.total,
    ).toBe(0);
  });
});
