import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { catalogCalls, paths, EVENT_SCHEMA, EVENT_STUB, OPEN_PARAMS } from '../support/catalog.js';
import { admin, newSite, newUser, type TestUser } from '../support/factories.js';
import { createPage } from '../support/library.js';

let t: TestApp;
let adm: TestUser;
let user: TestUser;
beforeAll(async () => {
  t = await startApp();
  adm = await admin(t);
  user = await newUser(t);
});
afterAll(() => t.close());

const { v1, asAdmin, newResultType, newSource } = catalogCalls(() => ({ t, adm, user }));

describe('administration of tags and layout tags', () => {
  it.each([
    ['/tags', '/admin/tags'],
    ['/layout-tags', '/admin/layout-tags'],
  ])('runs create, rename and delete for %s, making slugs from names', async (list, admin) => {
    const made = await asAdmin('POST', admin, { name: '  Product News! ' });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toEqual({ id: expect.any(Number), name: 'Product News!', slug: 'product-news' });
    const ru = await asAdmin('POST', admin, { name: 'Новости дня' });
    expect(ru.body.slug).toBe('novosti-dnya');
    const given = await asAdmin('POST', admin, { name: 'Guides', slug: 'how-to' });
    expect(given.body.slug).toBe('how-to');

    const renamed = await asAdmin('PUT', `${admin}/${made.body.id}`, { name: 'Releases' });
    expect(renamed.body).toEqual({ id: made.body.id, name: 'Releases', slug: 'product-news' });
    const listed = (await v1(list)).body.data;
    expect(listed).toEqual(expect.arrayContaining([renamed.body, ru.body, given.body]));

    for (const tag of [made.body, ru.body, given.body])
      expect((await asAdmin('DELETE', `${admin}/${tag.id}`)).status).toBe(204);
    expect((await v1(list)).body.total).toBe(0);
    expect((await asAdmin('DELETE', `${admin}/${made.body.id}`)).status).toBe(404);
  });

  it('keeps the slugs of tags and layout tags apart', async () => {
    const a = await asAdmin('POST', '/admin/tags', { name: 'Shared' });
    const b = await asAdmin('POST', '/admin/layout-tags', { name: 'Shared' });
    expect([a.status, b.status]).toEqual([201, 201]);
    await asAdmin('DELETE', `/admin/tags/${a.body.id}`);
    await asAdmin('DELETE', `/admin/layout-tags/${b.body.id}`);
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{}, 'name'],
    [{ name: 'x'.repeat(256) }, 'name'],
    [{ name: 'Fine', slug: 'Not A Slug' }, 'slug'],
    [{ name: '!!!' }, 'slug'],
  ])('refuses %j with 400 at %s, creating nothing', async (body, path) => {
    const before = (await v1('/tags')).body.total;
    const r = await asAdmin('POST', '/admin/tags', body);
    expect(r.status).toBe(400);
    expect(paths(r.body)).toEqual([path]);
    expect((await v1('/tags')).body.total).toBe(before);
  });

  it('refuses a taken slug with 409 at slug, on create and on change', async () => {
    const first = (await asAdmin('POST', '/admin/tags', { name: 'Events' })).body;
    const other = (await asAdmin('POST', '/admin/tags', { name: 'Other' })).body;
    const before = (await v1('/tags')).body;
    const r = await asAdmin('POST', '/admin/tags', { name: 'events' });
    expect(r.status).toBe(409);
    expect(paths(r.body)).toEqual(['slug']);
    const change = await asAdmin('PUT', `/admin/tags/${other.id}`, { slug: first.slug });
    expect(change.status).toBe(409);
    expect(paths(change.body)).toEqual(['slug']);
    expect((await v1('/tags')).body).toEqual(before);
  });
});

describe('administration of page types', () => {
  it('adds a kind that pages can use, renames it, and deletes it once no page has it', async () => {
    const made = await asAdmin('POST', '/admin/page-types', { kind: 'landing', title: 'Landing page' });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toEqual({ kind: 'landing', title: 'Landing page' });
    expect((await asAdmin('PUT', '/admin/page-types/landing', { title: 'Landing' })).body).toEqual({
      kind: 'landing',
      title: 'Landing',
    });
    expect((await v1('/page-types')).body.data).toContainEqual({ kind: 'landing', title: 'Landing' });

    const site = await newSite(t, user);
    const page = await createPage(t, user, { name: 'Spring sale', site_id: site.id, kind: 'landing' });
    const held = await asAdmin('DELETE', '/admin/page-types/landing');
    expect(held.status).toBe(409);
    expect((await v1('/page-types')).body.data).toContainEqual({ kind: 'landing', title: 'Landing' });

    expect((await t.call('DELETE', `/api/v1/pages/${page.id}`, { key: user.key })).status).toBe(204);
    expect((await asAdmin('DELETE', '/admin/page-types/landing')).status).toBe(204);
    expect((await v1('/page-types')).body.data.map((p: { kind: string }) => p.kind)).not.toContain('landing');
  });

  it('refuses a taken kind (409 at kind), a malformed kind (400 at kind) and deleting a built-in kind (409)', async () => {
    const before = (await v1('/page-types')).body;
    const taken = await asAdmin('POST', '/admin/page-types', { kind: 'article', title: 'Another article' });
    expect(taken.status).toBe(409);
    expect(paths(taken.body)).toEqual(['kind']);
    const malformed = await asAdmin('POST', '/admin/page-types', { kind: 'Big Kind', title: 'x' });
    expect(malformed.status).toBe(400);
    expect(paths(malformed.body)).toEqual(['kind']);
    for (const kind of ['article', 'template', 'layout'])
      expect((await asAdmin('DELETE', `/admin/page-types/${kind}`)).status).toBe(409);
    expect((await v1('/page-types')).body).toEqual(before);
  });
});

describe('a non-administrator', () => {
  it('gets 403 on every admin catalog route, and nothing changes', async () => {
    const tag = (await asAdmin('POST', '/admin/tags', { name: 'Admin only' })).body;
    const layoutTag = (await asAdmin('POST', '/admin/layout-tags', { name: 'Admin only' })).body;
    const type = await newResultType();
    const source = await newSource(type.id);
    const snapshot = async () =>
      Promise.all(
        ['/tags', '/layout-tags', '/page-types', '/data-sources', '/data-result-types'].map(
          async (p) => (await v1(`${p}?limit=200`)).body,
        ),
      );
    const before = await snapshot();

    const routes: [string, string, unknown?][] = [
      ['GET', '/admin/tags'],
      ['POST', '/admin/tags', { name: 'Sneaky' }],
      ['PUT', `/admin/tags/${tag.id}`, { name: 'Sneaky' }],
      ['DELETE', `/admin/tags/${tag.id}`],
      ['GET', '/admin/layout-tags'],
      ['POST', '/admin/layout-tags', { name: 'Sneaky' }],
      ['PUT', `/admin/layout-tags/${layoutTag.id}`, { name: 'Sneaky' }],
      ['DELETE', `/admin/layout-tags/${layoutTag.id}`],
      ['GET', '/admin/page-types'],
      ['POST', '/admin/page-types', { kind: 'sneaky', title: 'Sneaky' }],
      ['PUT', '/admin/page-types/article', { title: 'Sneaky' }],
      ['DELETE', '/admin/page-types/template'],
      ['GET', '/admin/data-result-types'],
      [
        'POST',
        '/admin/data-result-types',
        { id: 'sneaky_list', title: 'Sneaky', schema_json: EVENT_SCHEMA, stub: EVENT_STUB },
      ],
      ['PUT', `/admin/data-result-types/${type.id}`, { title: 'Sneaky' }],
      ['DELETE', `/admin/data-result-types/${type.id}`],
      ['GET', '/admin/data-sources'],
      [
        'POST',
        '/admin/data-sources',
        { id: 'sneaky.source', title: 'Sneaky', result_type_id: 'article_list', params_schema: OPEN_PARAMS },
      ],
      ['PUT', `/admin/data-sources/${source.id}`, { title: 'Sneaky' }],
      ['DELETE', `/admin/data-sources/${source.id}`],
    ];
    for (const [method, path, body] of routes) {
      const r = await t.call(method, `/api${path}`, { cookie: user.cookie, body });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.error).toEqual(expect.any(String));
      const anonymous = await t.call(method, `/api${path}`, { body });
      expect(anonymous.status, `anonymous ${method} ${path}`).toBe(401);
    }
    expect(await snapshot()).toEqual(before);
  });
});
