import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage, feedFields, heroFields } from '../support/library.js';

let t: TestApp;
let user: TestUser;
let other: TestUser;
let site: { id: number };
let hero: { id: number };
let feed: { id: number };

beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  other = await newUser(t);
  site = await newSite(t, user);
  hero = await createBlock(t, user, { name: 'Hero', template: '<h1>{{ title }}</h1>', schema_content: heroFields });
  feed = await createBlock(t, user, {
    name: 'Feed',
    template: '{% for a in news %}{{ a.title }}{% endfor %}',
    schema_content: feedFields,
  });
});
afterAll(() => t.close());

const read = (id: number) => t.call('GET', `/api/v1/pages/${id}`, { key: user.key, query: { with_blocks: 1 } });
const paths = (r: { body: { errors?: { path: string }[] } }) => (r.body.errors ?? []).map((e) => e.path);

describe('the main workflow', () => {
  it('finds a site and a block, reads its schema, creates a page, fixes a 400 and verifies', async () => {
    const sites = await t.call('GET', '/api/v1/sites', { key: user.key });
    const siteId = sites.body.data[0].id;
    const found = await t.call('GET', '/api/v1/search/blocks', { key: user.key, query: { q: 'hero' } });
    // The starter catalog has a global Hero too: an agent picks its own by scope.
    const blockId = found.body.data.find((b: { scope: string }) => b.scope === 'user').id;
    expect(blockId).toBe(hero.id);
    const contract = await t.call('GET', `/api/v1/blocks/${blockId}/placeholder-schema`, { key: user.key });
    const first = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: { name: 'Landing', site_id: siteId, blocks: [{ block_id: blockId, placeholder_values: { items: [{}] } }] },
    });
    expect(first.status).toBe(400);
    expect(paths(first)).toEqual([
      'blocks[0].placeholder_values.title',
      'blocks[0].placeholder_values.items[0].caption',
    ]);
    const fixed = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: {
        name: 'Landing',
        site_id: siteId,
        blocks: [{ block_id: blockId, placeholder_values: { ...contract.body.example, items: [{ caption: 'One' }] } }],
      },
    });
    expect(fixed.status).toBe(201);
    const page = await read(fixed.body.id);
    expect(page.body.blocks).toEqual([
      {
        id: expect.any(Number),
        block: { id: blockId, name: 'Hero', kind: 'content' },
        order_index: 0,
        placeholder_values: { ...contract.body.example, items: [{ caption: 'One' }] },
        bindings: null,
        parent_page_block_id: null,
        version: { major: 1, minor: 0 },
        update_status: 'up_to_date',
      },
    ]);
    expect((await t.call('GET', `/api/v1/pages/${fixed.body.id}`, { key: user.key })).body.blocks).toBeNull();
  });
});

describe('pages', () => {
  it('keeps metadata flat, the order of blocks, and blocks null without with_blocks', async () => {
    const page = await createPage(t, user, {
      name: 'About',
      site_id: site.id,
      slug: 'about',
      meta_title: 'About us',
      meta_description: 'd',
      meta_keywords: 'k',
      meta_robots: 'noindex',
      blocks: [
        { block_id: hero.id, placeholder_values: { title: 'A' } },
        { block_id: feed.id, bindings: { news: { source: 'articles.latest', params: { limit: 2 } } } },
        { block_id: hero.id, placeholder_values: { title: 'C', extra: 'kept' } },
      ],
    });
    expect(page).toMatchObject({
      kind: 'article',
      slug: 'about',
      meta_title: 'About us',
      meta_robots: 'noindex',
      has_outdated_blocks: false,
    });
    expect(
      page.blocks.map((b: { order_index: number; placeholder_values: { title?: string } }) => [
        b.order_index,
        b.placeholder_values.title,
      ]),
    ).toEqual([
      [0, 'A'],
      [1, undefined],
      [2, 'C'],
    ]);
    expect(page.blocks[1].bindings).toEqual({ news: { source: 'articles.latest', params: { limit: 2 } } });
    expect(page.blocks[2].placeholder_values.extra).toBe('kept');
  });

  it('changes metadata only without blocks, and replaces the whole set with blocks', async () => {
    const page = await createPage(t, user, {
      name: 'P',
      site_id: site.id,
      blocks: [{ block_id: hero.id, placeholder_values: { title: 'x' } }],
    });
    const meta = await t.call('PUT', `/api/v1/pages/${page.id}`, {
      key: user.key,
      body: { name: 'P2', meta_title: 'T' },
    });
    expect(meta.body).toMatchObject({ name: 'P2', meta_title: 'T' });
    expect(meta.body.blocks).toHaveLength(1);
    const replaced = await t.call('PUT', `/api/v1/pages/${page.id}`, {
      key: user.key,
      body: { blocks: [{ block_id: feed.id }, { block_id: feed.id }] },
    });
    expect(replaced.body.blocks.map((b: { block: { id: number } }) => b.block.id)).toEqual([feed.id, feed.id]);
  });

  it('lets site_id be set, lists and searches pages, and deletes', async () => {
    const second = await newSite(t, user, 'Second');
    const page = await createPage(t, user, { name: 'Movable tapir', site_id: site.id });
    expect(
      (await t.call('PUT', `/api/v1/pages/${page.id}`, { key: user.key, body: { site_id: second.id } })).body.site_id,
    ).toBe(second.id);
    const found = await t.call('GET', '/api/v1/search/pages', { key: user.key, query: { q: 'tapir' } });
    expect(found.body.data.map((p: { id: number }) => p.id)).toEqual([page.id]);
    expect((await t.call('GET', '/api/v1/pages', { key: user.key })).body.total).toBeGreaterThan(0);
    expect((await t.call('DELETE', `/api/v1/pages/${page.id}`, { key: user.key })).status).toBe(204);
    expect((await t.call('GET', `/api/v1/pages/${page.id}`, { key: user.key })).status).toBe(404);
  });

  it("hides another user's page (404) and its site", async () => {
    const page = await createPage(t, user, { name: 'Private', site_id: site.id });
    expect((await t.call('GET', `/api/v1/pages/${page.id}`, { key: other.key })).status).toBe(404);
    expect((await t.call('PUT', `/api/v1/pages/${page.id}`, { key: other.key, body: { name: 'x' } })).status).toBe(404);
    expect((await t.call('DELETE', `/api/v1/pages/${page.id}`, { key: other.key })).status).toBe(404);
    expect((await read(page.id)).body.name).toBe('Private');
  });
});

describe('bad input leaves nothing written', () => {
  const countPages = async () =>
    Number(
      (
        await t.app.database.db
          .selectFrom('pages')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it.each([
    ['title instead of name', () => ({ title: 'x', site_id: site.id }), 400, ['name']],
    ['site_id as a string', () => ({ name: 'x', site_id: String(site.id) }), 400, ['site_id']],
    ['a missing site', () => ({ name: 'x', site_id: 999999 }), 404, ['site_id']],
    ['an unknown kind', () => ({ name: 'x', site_id: site.id, kind: 'poster' }), 400, ['kind']],
    ['a slug on a template', () => ({ name: 'x', site_id: site.id, kind: 'template', slug: 'x' }), 400, ['slug']],
    [
      'a missing required value',
      () => ({ name: 'x', site_id: site.id, blocks: [{ block_id: hero.id, placeholder_values: {} }] }),
      400,
      ['blocks[0].placeholder_values.title'],
    ],
    [
      'a wrong type deep in an array',
      () => ({
        name: 'x',
        site_id: site.id,
        blocks: [
          { block_id: hero.id, placeholder_values: { title: 'ok' } },
          { block_id: hero.id, placeholder_values: { title: 'ok', items: [{ caption: 'a' }, { caption: 5 }] } },
        ],
      }),
      400,
      ['blocks[1].placeholder_values.items[1].caption'],
    ],
    [
      'an unknown block id',
      () => ({
        name: 'x',
        site_id: site.id,
        blocks: [{ block_id: hero.id, placeholder_values: { title: 'ok' } }, { block_id: 999999 }],
      }),
      404,
      ['blocks[1].block_id'],
    ],
    [
      'a disallowed source',
      () => ({
        name: 'x',
        site_id: site.id,
        blocks: [{ block_id: feed.id, bindings: { news: { source: 'rubrics.all' } } }],
      }),
      400,
      ['blocks[0].bindings.news.source'],
    ],
    [
      'an invented params key',
      () => ({
        name: 'x',
        site_id: site.id,
        blocks: [{ block_id: feed.id, bindings: { news: { source: 'articles.latest', params: { count: 3 } } } }],
      }),
      400,
      ['blocks[0].bindings.news.params.count'],
    ],
    [
      'limit as a word',
      () => ({
        name: 'x',
        site_id: site.id,
        blocks: [{ block_id: feed.id, bindings: { news: { source: 'articles.latest', params: { limit: 'ten' } } } }],
      }),
      400,
      ['blocks[0].bindings.news.params.limit'],
    ],
    [
      'a binding on a static block',
      () => ({
        name: 'x',
        site_id: site.id,
        blocks: [
          { block_id: hero.id, placeholder_values: { title: 'ok' }, bindings: { news: { source: 'articles.latest' } } },
        ],
      }),
      400,
      ['blocks[0].bindings'],
    ],
    [
      'a binding for an unknown slot',
      () => ({
        name: 'x',
        site_id: site.id,
        blocks: [{ block_id: feed.id, bindings: { sidebar: { source: 'articles.latest' } } }],
      }),
      400,
      ['blocks[0].bindings.sidebar'],
    ],
  ])('refuses %s (%s at %j)', async (_, body, status, expected) => {
    const before = await countPages();
    const r = await t.call('POST', '/api/v1/pages', { key: user.key, body: body() });
    expect(r.status).toBe(status);
    expect(paths(r)).toEqual(expected);
    expect(await countPages()).toBe(before);
  });

  it('reports 404 blocks[i]: block N not found for a deleted block and a foreign private one', async () => {
    const gone = await createBlock(t, user, { name: 'Gone' });
    await t.call('DELETE', `/api/v1/blocks/${gone.id}`, { key: user.key });
    const foreign = await createBlock(t, other, { name: 'Not mine', template: 'x' });
    const r = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: { name: 'x', site_id: site.id, blocks: [{ block_id: gone.id }, { block_id: foreign.id }] },
    });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe(`blocks[0]: block ${gone.id} not found`);
    expect(paths(r)).toEqual(['blocks[0].block_id', 'blocks[1].block_id']);
  });

  it('refuses a foreign site', async () => {
    const theirs = await newSite(t, other);
    const r = await t.call('POST', '/api/v1/pages', { key: user.key, body: { name: 'x', site_id: theirs.id } });
    expect(r.status).toBe(403);
    expect(paths(r)).toEqual(['site_id']);
  });

  it('answers 409 at slug for a duplicate within the site, and allows it in another site', async () => {
    await createPage(t, user, { name: 'One', site_id: site.id, slug: 'dup' });
    const r = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: { name: 'Two', site_id: site.id, slug: 'dup' },
    });
    expect(r.status).toBe(409);
    expect(r.body.errors).toEqual([{ path: 'slug', message: expect.any(String), code: 'conflict' }]);
    const elsewhere = await newSite(t, user, 'Elsewhere');
    expect(
      (
        await t.call('POST', '/api/v1/pages', {
          key: user.key,
          body: { name: 'Two', site_id: elsewhere.id, slug: 'dup' },
        })
      ).status,
    ).toBe(201);
  });

  it('refuses with_blocks=yes and a kind change, leaving the page as it was', async () => {
    const page = await createPage(t, user, {
      name: 'Fixed',
      site_id: site.id,
      blocks: [{ block_id: hero.id, placeholder_values: { title: 'keep' } }],
    });
    const yes = await t.call('GET', `/api/v1/pages/${page.id}`, { key: user.key, query: { with_blocks: 'yes' } });
    expect(yes.status).toBe(400);
    expect(paths(yes)).toEqual(['with_blocks']);
    const kind = await t.call('PUT', `/api/v1/pages/${page.id}`, { key: user.key, body: { kind: 'template' } });
    expect(kind.status).toBe(400);
    const bad = await t.call('PUT', `/api/v1/pages/${page.id}`, {
      key: user.key,
      body: { name: 'Changed', blocks: [{ block_id: hero.id, placeholder_values: {} }] },
    });
    expect(bad.status).toBe(400);
    const after = await read(page.id);
    expect(after.body).toMatchObject({ name: 'Fixed', kind: 'article' });
    expect(after.body.blocks.map((b: { placeholder_values: unknown }) => b.placeholder_values)).toEqual([
      { title: 'keep' },
    ]);
  });
});

describe('the page after its site is deleted', () => {
  it('keeps the page without a site until another is set', async () => {
    const doomed = await newSite(t, user, 'Doomed');
    const page = await createPage(t, user, { name: 'Orphan', site_id: doomed.id });
    expect((await t.call('DELETE', `/api/sites/${doomed.id}`, { cookie: user.cookie })).status).toBe(204);
    expect((await read(page.id)).body.site_id).toBeNull();
    expect(
      (await t.call('PUT', `/api/v1/pages/${page.id}`, { key: user.key, body: { site_id: site.id } })).body.site_id,
    ).toBe(site.id);
  });
});

describe('page search', () => {
  it('ranks name matches first, finds slug words and meta fields, follows changes, and shows only your pages', async () => {
    const metaHit = await createPage(t, user, {
      name: 'Quarterly report',
      site_id: site.id,
      meta_description: 'All about the kestrel survey',
    });
    const slugHit = await createPage(t, user, { name: 'Birds', site_id: site.id, slug: 'kestrel-nests' });
    const nameHit = await createPage(t, user, { name: 'Kestrel watch', site_id: site.id });
    await createPage(t, other, { name: 'Kestrel of another user', site_id: (await newSite(t, other)).id });
    const search = async (q: string) =>
      (await t.call('GET', '/api/v1/search/pages', { key: user.key, query: { q } })).body;

    const found = await search('kestrel');
    expect(found.data.map((p: { id: number }) => p.id)).toEqual([nameHit.id, slugHit.id, metaHit.id]);
    expect(found.total).toBe(3);
    expect((await search('nests')).data.map((p: { id: number }) => p.id)).toEqual([slugHit.id]);

    await t.call('PUT', `/api/v1/pages/${nameHit.id}`, { key: user.key, body: { name: 'Falcon watch' } });
    expect((await search('falcon')).data.map((p: { id: number }) => p.id)).toEqual([nameHit.id]);
    expect((await search('kestrel')).total).toBe(2);
    await t.call('DELETE', `/api/v1/pages/${slugHit.id}`, { key: user.key });
    expect((await search('kestrel')).data.map((p: { id: number }) => p.id)).toEqual([metaHit.id]);
    expect((await t.call('GET', '/api/v1/search/pages', { key: user.key, query: { q: 'k' } })).status).toBe(400);
  });
});
