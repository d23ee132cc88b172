import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { admin, newUser, type TestUser } from '../support/factories.js';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let boss: TestUser;

const heroFields = [
  { name: 'title', type: 'string', required: true, max_length: 80 },
  { name: 'subtitle', type: 'text' },
  {
    name: 'items',
    type: 'array',
    items: { type: 'object', fields: [{ name: 'caption', type: 'string', required: true }] },
  },
];

beforeAll(async () => {
  t = await startApp();
  owner = await newUser(t);
  stranger = await newUser(t);
  boss = await admin(t);
});
afterAll(() => t.close());

const createBlock = async (user: TestUser, body: Record<string, unknown>) => {
  const r = await t.call('POST', '/api/v1/blocks', { key: user.key, body });
  if (r.status !== 201) throw new Error(`block creation failed: ${r.status} ${r.text}`);
  return r.body;
};
const createGlobal = async (body: Record<string, unknown>) => {
  const r = await t.call('POST', '/api/admin/blocks', { cookie: boss.cookie, body });
  if (r.status !== 201) throw new Error(`global block creation failed: ${r.status} ${r.text}`);
  return r.body;
};
const countBlocks = async () =>
  Number(
    (
      await t.app.database.db
        .selectFrom('blocks')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('creating and reading blocks', () => {
  it('creates a private block with revision 1.0 and every output field', async () => {
    const block = await createBlock(owner, {
      name: 'Hero',
      description: 'Big title',
      template: '<h1>{{ title }}</h1>',
      css: 'h1{}',
      schema_content: heroFields,
      changelog: 'first',
    });
    expect(block).toMatchObject({
      name: 'Hero',
      description: 'Big title',
      scope: 'user',
      kind: 'content',
      block_type: null,
      is_favorite: false,
      is_deprecated: false,
      fork_count: 0,
      version: { major: 1, minor: 0 },
      current_revision: {
        version: { major: 1, minor: 0 },
        template_content: '<h1>{{ title }}</h1>',
        css: 'h1{}',
        changelog: 'first',
      },
    });
    expect(block.current_revision.schema_content.map((f: { name: string }) => f.name)).toEqual([
      'title',
      'subtitle',
      'items',
    ]);
    expect((await t.call('GET', `/api/v1/blocks/${block.id}`, { key: owner.key })).body).toEqual(block);
  });

  it('creates a block without content and without revision', async () => {
    const block = await createBlock(owner, { name: 'Empty' });
    expect(block.version).toBeNull();
    expect(block.current_revision).toBeNull();
  });

  it("answers 403 for another user's private block and 404 for a missing one", async () => {
    const block = await createBlock(owner, { name: 'Mine', template: 'x' });
    const r = await t.call('GET', `/api/v1/blocks/${block.id}`, { key: stranger.key });
    expect(r.status).toBe(403);
    expect((await t.call('GET', '/api/v1/blocks/999999', { key: owner.key })).status).toBe(404);
  });

  it.each([
    ['no name', { template: 'x' }, 400, 'name'],
    ['a blank name', { name: '  ' }, 400, 'name'],
    ['an unknown kind', { name: 'x', kind: 'poster' }, 400, 'kind'],
    ['a string for tags', { name: 'x', tags: '1,2' }, 400, 'tags'],
    ['a tag that does not exist', { name: 'x', tags: [999999] }, 422, 'tags[0]'],
    [
      'an unknown field type',
      {
        name: 'x',
        schema_content: [
          { name: 'a', type: 'string' },
          { name: 'b', type: 'hologram' },
        ],
      },
      422,
      'schema_content[1].type',
    ],
    [
      'a duplicate field name',
      {
        name: 'x',
        schema_content: [
          { name: 'a', type: 'string' },
          { name: 'a', type: 'text' },
        ],
      },
      422,
      'schema_content[1].name',
    ],
    [
      '_markdown as a name',
      { name: 'x', schema_content: [{ name: '_markdown', type: 'string' }] },
      422,
      'schema_content[0].name',
    ],
    [
      'a default that breaks its field',
      { name: 'x', schema_content: [{ name: 'n', type: 'integer', max: 3, default: 9 }] },
      422,
      'schema_content[0].default',
    ],
    [
      'a binding with an unknown source',
      { name: 'x', schema_content: [{ name: 'feed', type: 'binding', allowed_sources: ['nowhere.at_all'] }] },
      422,
      'schema_content[0].allowed_sources[0]',
    ],
  ])('refuses %s (%s at %s) and writes nothing', async (_, body, status, path) => {
    const before = await countBlocks();
    const r = await t.call('POST', '/api/v1/blocks', { key: owner.key, body });
    expect(r.status).toBe(status);
    expect(r.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(await countBlocks()).toBe(before);
  });
});

describe('revisions and version bumps', () => {
  it('bumps minor for template, css, js or an added field; major for a removed or renamed field; none for metadata', async () => {
    const block = await createBlock(owner, { name: 'Card', template: 'a', schema_content: heroFields });
    const put = (body: Record<string, unknown>) =>
      t.call('PUT', `/api/v1/blocks/${block.id}`, { key: owner.key, body });

    let r = await put({ name: 'Card 2', description: 'd', docs: '# doc', block_type: 'schema' });
    expect(r.status).toBe(200);
    expect(r.body.version_bump).toBe('none');
    expect(r.body.block.version).toEqual({ major: 1, minor: 0 });
    expect(r.body.block.name).toBe('Card 2');

    r = await put({ template: 'b', changelog: 'new markup' });
    expect(r.body).toMatchObject({
      version_bump: 'minor',
      block: { version: { major: 1, minor: 1 }, current_revision: { changelog: 'new markup' } },
    });
    r = await put({ css: '.x{}' });
    expect(r.body.block.version).toEqual({ major: 1, minor: 2 });
    r = await put({ js: 'console.log(1)' });
    expect(r.body.block.version).toEqual({ major: 1, minor: 3 });
    r = await put({ schema_content: [...heroFields, { name: 'badge', type: 'string' }] });
    expect(r.body).toMatchObject({ version_bump: 'minor', block: { version: { major: 1, minor: 4 } } });
    r = await put({ template: 'b' }); // unchanged content
    expect(r.body.version_bump).toBe('none');

    const nestedRemoved = [
      heroFields[0],
      heroFields[1],
      { name: 'items', type: 'array', items: { type: 'object', fields: [{ name: 'label', type: 'string' }] } },
      { name: 'badge', type: 'string' },
    ];
    r = await put({ schema_content: nestedRemoved });
    expect(r.body).toMatchObject({ version_bump: 'major', block: { version: { major: 2, minor: 0 } } });

    const revisions = await t.app.database.db
      .selectFrom('block_revisions')
      .select(['major', 'minor', 'template'])
      .where('block_id', '=', block.id)
      .orderBy('id')
      .execute();
    expect(revisions.map((v) => `${v.major}.${v.minor}`)).toEqual(['1.0', '1.1', '1.2', '1.3', '1.4', '2.0']);
    // Revisions are never rewritten: 1.0 still holds the first template.
    expect(revisions[0]!.template).toBe('a');
  });

  it('refuses to change the kind, and answers 422 for a bad schema without a new revision', async () => {
    const block = await createBlock(owner, { name: 'Fixed', template: 'a' });
    const kind = await t.call('PUT', `/api/v1/blocks/${block.id}`, { key: owner.key, body: { kind: 'layout' } });
    expect(kind.status).toBe(400);
    expect(kind.body.errors[0].path).toBe('kind');
    const bad = await t.call('PUT', `/api/v1/blocks/${block.id}`, {
      key: owner.key,
      body: { schema_content: [{ name: 'Bad Name', type: 'string' }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe('schema_content[0].name');
    expect((await t.call('GET', `/api/v1/blocks/${block.id}`, { key: owner.key })).body.version).toEqual({
      major: 1,
      minor: 0,
    });
  });

  it('keeps global blocks to administrators', async () => {
    const global = await createGlobal({ name: 'Global hero', template: 'g' });
    expect(global.scope).toBe('global');
    const byUser = await t.call('PUT', `/api/v1/blocks/${global.id}`, { key: owner.key, body: { name: 'hijacked' } });
    expect(byUser.status).toBe(403);
    const deleteByUser = await t.call('DELETE', `/api/v1/blocks/${global.id}`, { key: owner.key });
    expect(deleteByUser.status).toBe(403);
    const notAdmin = await t.call('POST', '/api/admin/blocks', { cookie: owner.cookie, body: { name: 'sneaky' } });
    expect(notAdmin.status).toBe(403);
    const byAdmin = await t.call('PUT', `/api/admin/blocks/${global.id}`, {
      cookie: boss.cookie,
      body: { template: 'g2' },
    });
    expect(byAdmin.body).toMatchObject({ version_bump: 'minor', block: { version: { major: 1, minor: 1 } } });
    expect((await t.call('GET', `/api/v1/blocks/${global.id}`, { key: stranger.key })).body.name).toBe('Global hero');
  });
});

describe('placeholder schema', () => {
  it('serves a Draft-07 schema, a valid example and binding slots', async () => {
    const block = await createBlock(owner, {
      name: 'Feed',
      template: '{% for a in feed %}{{ a.title }}{% endfor %}',
      schema_content: [
        ...heroFields,
        { name: 'feed', type: 'binding', allowed_sources: ['articles.latest'], result_type: 'article_list' },
      ],
    });
    const r = await t.call('GET', `/api/v1/blocks/${block.id}/placeholder-schema`, { key: owner.key });
    expect(r.status).toBe(200);
    expect(r.body.block_type).toBe('schema');
    expect(r.body.schema).toMatchObject({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      required: ['title'],
    });
    expect(r.body.schema.properties.feed).toBeUndefined();
    expect(r.body.schema.additionalProperties).not.toBe(false);
    expect(r.body.example.title).toEqual(expect.any(String));
    expect(r.body.binding_slots).toEqual([
      { name: 'feed', allowed_sources: ['articles.latest'], default: null, result_type: 'article_list' },
    ]);
  });

  it('makes _markdown the main content of markdown blocks', async () => {
    const block = await createBlock(owner, {
      name: 'Article body',
      block_type: 'markdown',
      template: '{{ _markdown }}',
      schema_content: [{ name: 'width', type: 'select', options: ['wide', 'narrow'], required: true }],
    });
    const r = await t.call('GET', `/api/v1/blocks/${block.id}/placeholder-schema`, { key: owner.key });
    expect(r.body.block_type).toBe('markdown');
    expect(r.body.schema.required).toEqual(['_markdown']);
    expect(r.body.schema.properties._markdown.type).toBe('string');
    expect(r.body.binding_slots).toEqual([]);
  });

  it('follows the access rules of the block', async () => {
    const block = await createBlock(owner, { name: 'Secret', template: 'x' });
    expect((await t.call('GET', `/api/v1/blocks/${block.id}/placeholder-schema`, { key: stranger.key })).status).toBe(
      403,
    );
    expect((await t.call('GET', '/api/v1/blocks/999999/placeholder-schema', { key: owner.key })).status).toBe(404);
  });
});

describe('fork, favorites, deprecation, delete', () => {
  it('forks a global block into a private copy and counts it on the source', async () => {
    const source = await createGlobal({ name: 'Pricing', template: 'p', schema_content: heroFields });
    const fork = await t.call('POST', `/api/v1/blocks/${source.id}/fork`, { key: owner.key });
    expect(fork.status).toBe(201);
    expect(fork.body).toMatchObject({
      name: 'Pricing (fork)',
      scope: 'user',
      forked_from_id: source.id,
      version: { major: 1, minor: 0 },
      current_revision: { template_content: 'p' },
    });
    const named = await t.call('POST', `/api/v1/blocks/${source.id}/fork`, {
      key: stranger.key,
      body: { name: 'My pricing' },
    });
    expect(named.body.name).toBe('My pricing');
    expect((await t.call('GET', `/api/v1/blocks/${source.id}`, { key: owner.key })).body.fork_count).toBe(2);
  });

  it('refuses to fork a private block (400) and a missing one (404)', async () => {
    const mine = await createBlock(owner, { name: 'Private', template: 'x' });
    const before = await countBlocks();
    const r = await t.call('POST', `/api/v1/blocks/${mine.id}/fork`, { key: owner.key });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/not global/);
    expect((await t.call('POST', '/api/v1/blocks/999999/fork', { key: owner.key })).status).toBe(404);
    expect(await countBlocks()).toBe(before);
  });

  it('marks favorites idempotently and lists them with is_favorite true', async () => {
    const block = await createGlobal({ name: 'Loved', template: 'x' });
    expect((await t.call('PUT', `/api/v1/blocks/${block.id}/favorite`, { key: stranger.key })).status).toBe(204);
    expect((await t.call('PUT', `/api/v1/blocks/${block.id}/favorite`, { key: stranger.key })).status).toBe(204);
    const favorites = await t.call('GET', '/api/v1/blocks/favorites', { key: stranger.key });
    expect(favorites.body.total).toBe(1);
    expect(favorites.body.data[0]).toMatchObject({ id: block.id, is_favorite: true });
    expect((await t.call('GET', `/api/v1/blocks/${block.id}`, { key: stranger.key })).body.is_favorite).toBe(true);
    expect((await t.call('GET', `/api/v1/blocks/${block.id}`, { key: owner.key })).body.is_favorite).toBe(false);
    expect((await t.call('DELETE', `/api/v1/blocks/${block.id}/favorite`, { key: stranger.key })).status).toBe(204);
    expect((await t.call('GET', '/api/v1/blocks/favorites', { key: stranger.key })).body.total).toBe(0);
  });

  it('hides deprecated global blocks from lists but keeps them readable by id; private ones cannot be deprecated', async () => {
    const old = await createGlobal({ name: 'Zebra legacy banner', template: 'x' });
    const r = await t.call('PUT', `/api/admin/blocks/${old.id}/deprecation`, {
      cookie: boss.cookie,
      body: { is_deprecated: true },
    });
    expect(r.status).toBe(200);
    expect(r.body.is_deprecated).toBe(true);
    const list = await t.call('GET', '/api/v1/blocks', { key: owner.key, query: { limit: 200 } });
    expect(list.body.data.map((b: { id: number }) => b.id)).not.toContain(old.id);
    expect((await t.call('GET', '/api/v1/search/blocks', { key: owner.key, query: { q: 'zebra' } })).body.total).toBe(
      0,
    );
    expect((await t.call('GET', `/api/v1/blocks/${old.id}`, { key: owner.key })).body.is_deprecated).toBe(true);

    const mine = await createBlock(owner, { name: 'Mine', template: 'x' });
    const privateOne = await t.call('PUT', `/api/admin/blocks/${mine.id}/deprecation`, {
      cookie: boss.cookie,
      body: { is_deprecated: true },
    });
    expect(privateOne.status).toBe(422);
    const byUser = await t.call('PUT', `/api/admin/blocks/${old.id}/deprecation`, {
      cookie: owner.cookie,
      body: { is_deprecated: false },
    });
    expect(byUser.status).toBe(403);
  });

  it('deletes a block with all its revisions', async () => {
    const block = await createBlock(owner, { name: 'Doomed', template: 'a' });
    await t.call('PUT', `/api/v1/blocks/${block.id}`, { key: owner.key, body: { template: 'b' } });
    expect((await t.call('DELETE', `/api/v1/blocks/${block.id}`, { key: stranger.key })).status).toBe(403);
    expect((await t.call('DELETE', `/api/v1/blocks/${block.id}`, { key: owner.key })).status).toBe(204);
    expect((await t.call('GET', `/api/v1/blocks/${block.id}`, { key: owner.key })).status).toBe(404);
    const revisions = await t.app.database.db
      .selectFrom('block_revisions')
      .select('id')
      .where('block_id', '=', block.id)
      .execute();
    expect(revisions).toEqual([]);
  });
});

describe('lists', () => {
  it('filters by role and refuses an unknown role', async () => {
    const user = await newUser(t);
    await createBlock(user, { name: 'Two columns', kind: 'layout', template: '{{ children }}' });
    await createBlock(user, { name: 'Paragraph', template: 'p' });
    const layouts = await t.call('GET', '/api/v1/blocks', { key: user.key, query: { role: 'layout', limit: 200 } });
    expect(layouts.body.data.every((b: { kind: string }) => b.kind === 'layout')).toBe(true);
    expect(layouts.body.data.map((b: { name: string }) => b.name)).toContain('Two columns');
    const bad = await t.call('GET', '/api/v1/blocks', { key: user.key, query: { role: 'poster' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('role');
  });

  it('searches by name and description, and shows only what the key may see', async () => {
    const user = await newUser(t);
    await createBlock(user, { name: 'Quokka gallery', description: 'photos' });
    await createBlock(user, { name: 'Other', description: 'A QUOKKA in the text' });
    await createBlock(stranger, { name: 'Quokka of someone else' });
    const r = await t.call('GET', '/api/v1/blocks', { key: user.key, query: { search: 'quokka' } });
    expect(r.body.data.map((b: { name: string }) => b.name).sort()).toEqual(['Other', 'Quokka gallery']);
    expect(r.body.total).toBe(2);
  });
});

describe('field definitions hold only what the field format names', () => {
  const post = (schema_content: unknown[]) =>
    t.call('POST', '/api/v1/blocks', { key: owner.key, body: { name: 'Strict', template: '<p></p>', schema_content } });

  it('a binding whose result_type does not exist is 422 at its path', async () => {
    const r = await post([
      { name: 'title', type: 'string' },
      { name: 'feed', type: 'binding', allowed_sources: ['articles.latest'], result_type: 'no_such_type' },
    ]);
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([
      expect.objectContaining({
        path: 'schema_content[1].result_type',
        message: expect.stringContaining('no_such_type'),
      }),
    ]);
  });

  it('an unknown key, at any depth, is 422 at its path, and nothing is stored', async () => {
    const r = await post([
      { name: 'title', type: 'string', min_lenght: 3 },
      { name: 'author', type: 'object', fields: [{ name: 'name', type: 'string', widget: 'big' }] },
    ]);
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { path: string }) => e.path)).toEqual([
      'schema_content[0].min_lenght',
      'schema_content[1].fields[0].widget',
    ]);
    const listed = await t.call('GET', '/api/v1/blocks', { key: owner.key, query: { limit: 200 } });
    expect(listed.body.data.filter((b: { name: string }) => b.name === 'Strict')).toEqual([]);
  });
});
