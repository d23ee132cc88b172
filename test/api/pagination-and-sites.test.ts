import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newUser, type TestUser } from '../support/factories.js';

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  for (let i = 1; i <= 5; i++) await t.call('POST', '/api/sites', { cookie: user.cookie, body: { name: `Site ${i}` } });
});
afterAll(() => t.close());

describe('lists', () => {
  it('answers {data, total, limit, offset} with defaults 50 and 0', async () => {
    const r = await t.call('GET', '/api/v1/sites', { key: user.key });
    expect(r.body).toMatchObject({ total: 5, limit: 50, offset: 0 });
    expect(r.body.data).toHaveLength(5);
  });

  it('pages with limit and offset', async () => {
    const r = await t.call('GET', '/api/v1/sites', { key: user.key, query: { limit: 2, offset: 3 } });
    expect(r.body).toMatchObject({ total: 5, limit: 2, offset: 3 });
    expect(r.body.data.map((s: { name: string }) => s.name)).toEqual(['Site 4', 'Site 5']);
  });

  it.each([
    ['limit', '0'],
    ['limit', '201'],
    ['limit', 'abc'],
    ['offset', '-1'],
    ['offset', '1.5'],
  ])('refuses %s=%s with 400 at that path, not truncation', async (name, value) => {
    const r = await t.call('GET', '/api/v1/sites', { key: user.key, query: { [name]: value } });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { path: string }) => e.path)).toEqual([name]);
  });

  it('accepts the bounds 1 and 200', async () => {
    expect((await t.call('GET', '/api/v1/sites', { key: user.key, query: { limit: 1 } })).body.data).toHaveLength(1);
    expect((await t.call('GET', '/api/v1/sites', { key: user.key, query: { limit: 200 } })).status).toBe(200);
  });
});

describe('sites', () => {
  it('runs create, read, update and delete under the session', async () => {
    const created = await t.call('POST', '/api/sites', {
      cookie: user.cookie,
      body: { name: 'Blog', domain: 'blog.example.test' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Blog', domain: 'blog.example.test', layout_id: null });
    const id = created.body.id;
    const updated = await t.call('PUT', `/api/sites/${id}`, {
      cookie: user.cookie,
      body: { name: 'Journal', domain: null },
    });
    expect(updated.body).toMatchObject({ id, name: 'Journal', domain: null });
    expect((await t.call('GET', `/api/sites/${id}`, { cookie: user.cookie })).body.name).toBe('Journal');
    expect((await t.call('GET', `/api/v1/sites/${id}`, { key: user.key })).body.name).toBe('Journal');
    expect((await t.call('DELETE', `/api/sites/${id}`, { cookie: user.cookie })).status).toBe(204);
    expect((await t.call('GET', `/api/sites/${id}`, { cookie: user.cookie })).status).toBe(404);
  });

  it("answers 403 for another user's site and 404 for a missing one, changing nothing", async () => {
    const other = await newUser(t);
    const theirs = (await t.call('POST', '/api/sites', { cookie: other.cookie, body: { name: 'Theirs' } })).body;
    for (const [method, body] of [['GET'], ['PUT', { name: 'Mine now' }], ['DELETE']] as const) {
      const r = await t.call(method, `/api/sites/${theirs.id}`, { cookie: user.cookie, body });
      expect(r.status).toBe(403);
      expect(r.body.error).toMatch(/another user/);
    }
    expect((await t.call('GET', `/api/v1/sites/${theirs.id}`, { key: user.key })).status).toBe(403);
    expect((await t.call('GET', `/api/sites/${theirs.id}`, { cookie: other.cookie })).body.name).toBe('Theirs');
    expect((await t.call('GET', '/api/sites/999999', { cookie: user.cookie })).status).toBe(404);
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{}, 'name'],
    [{ name: 42 }, 'name'],
    [{ name: 'ok', domain: 5 }, 'domain'],
  ])('refuses %j at %s', async (body, path) => {
    const r = await t.call('POST', '/api/sites', { cookie: user.cookie, body });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it('refuses a non-numeric id at path id', async () => {
    const r = await t.call('GET', '/api/sites/abc', { cookie: user.cookie });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].path).toBe('id');
  });
});
