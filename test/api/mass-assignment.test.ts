import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startApp, type TestApp } from '../support/app.js';
import { admin, newSite, newUser, type TestUser } from '../support/factories.js';

/** Keys a body has no business sending never reach a row (found by the fuzz test). */
let t: TestApp;
let owner: TestUser;
let other: TestUser;
let root: TestUser;

beforeAll(async () => {
  t = await startApp();
  root = await admin(t);
  owner = await newUser(t);
  other = await newUser(t);
});
afterAll(() => t.close());

describe('extra keys in a body', () => {
  it('do not hand a site to another user', async () => {
    const site = await newSite(t, owner);
    const r = await t.call('PUT', `/api/sites/${site.id}`, {
      cookie: owner.cookie,
      body: { name: 'Renamed', user_id: other.id, id: site.id + 1000 },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: site.id, name: 'Renamed' });
    expect((await t.call('GET', `/api/v1/sites/${site.id}`, { key: owner.key })).status).toBe(200);
    expect((await t.call('GET', `/api/v1/sites/${site.id}`, { key: other.key })).status).toBe(403);
  });

  it('do not move a folder to another site or owner, and an empty change is no change', async () => {
    const site = await newSite(t, owner);
    const othersSite = await newSite(t, other);
    const folder = (await t.call('POST', '/api/v1/folders', { key: owner.key, body: { name: 'F', site_id: site.id } }))
      .body;
    const moved = await t.call('PUT', `/api/v1/folders/${folder.id}`, {
      key: owner.key,
      body: { site_id: othersSite.id, owner_id: other.id },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual(folder);
    const empty = await t.call('PUT', `/api/v1/folders/${folder.id}`, { key: owner.key, body: {} });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual(folder);
    expect((await t.call('GET', `/api/v1/folders/${folder.id}`, { key: other.key })).status).toBe(403);
  });

  it("do not change a user's email or password through the administrators' route", async () => {
    const r = await t.call('PUT', `/api/admin/users/${owner.id}`, {
      cookie: root.cookie,
      body: { is_blocked: false, email: ADMIN.email, password_hash: 'x', id: 1 },
    });
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ id: owner.id, email: owner.email });
    const login = await t.call('POST', '/api/auth/login', { body: { email: owner.email, password: 'password-123' } });
    expect(login.status).toBe(200);
  });

  it('are ignored when an administrator creates a data source or a result type', async () => {
    const type = await t.call('POST', '/api/admin/data-result-types', {
      cookie: root.cookie,
      body: {
        id: 'extra_type',
        title: 'T',
        schema_json: { type: 'array', items: { type: 'object' } },
        stub: [],
        extra: 1,
      },
    });
    expect(type.status).toBe(201);
    const source = await t.call('POST', '/api/admin/data-sources', {
      cookie: root.cookie,
      body: {
        id: 'extra.source',
        title: 'S',
        result_type_id: 'extra_type',
        params_schema: { type: 'object', additionalProperties: false, properties: {} },
        extra: 1,
      },
    });
    expect(source.status).toBe(201);
    expect(source.body).not.toHaveProperty('extra');
  });
});
