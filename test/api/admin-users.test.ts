import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { admin, newUser, type TestUser } from '../support/factories.js';

// The administrators' list of accounts: the users screen finds an account here, then blocks or promotes it.

let t: TestApp;
let root: TestUser;
beforeAll(async () => {
  t = await startApp();
  root = await admin(t);
});
afterAll(() => t.close());

describe('GET /api/admin/users', () => {
  it('lists accounts oldest first, paged, with their flags and never a password hash', async () => {
    const a = await newUser(t, { email: 'alpha_one@example.test' });
    const b = await newUser(t, { email: 'alphaXone@example.test' });
    const r = await t.call('GET', '/api/admin/users', { cookie: root.cookie, query: { limit: 200 } });
    expect(r.status).toBe(200);
    const ids = r.body.data.map((u: { id: number }) => u.id);
    expect(ids).toEqual([...ids].sort((x: number, y: number) => x - y));
    expect(ids).toEqual(expect.arrayContaining([root.id, a.id, b.id]));
    expect(r.body.total).toBe(ids.length);
    expect(r.body.data.find((u: { id: number }) => u.id === root.id)).toMatchObject({
      is_admin: true,
      is_blocked: false,
    });
    expect(r.text).not.toMatch(/password|scrypt/);

    const page = await t.call('GET', '/api/admin/users', { cookie: root.cookie, query: { limit: 1, offset: 1 } });
    expect(page.body).toMatchObject({ limit: 1, offset: 1, total: r.body.total });
    expect(page.body.data.map((u: { id: number }) => u.id)).toEqual([ids[1]]);
  });

  it('narrows by a piece of the email, whatever its case, with % and _ taken literally', async () => {
    const only = await t.call('GET', '/api/admin/users', { cookie: root.cookie, query: { email: 'ALPHA_' } });
    expect(only.body.data.map((u: { email: string }) => u.email)).toEqual(['alpha_one@example.test']);
    const none = await t.call('GET', '/api/admin/users', { cookie: root.cookie, query: { email: '%' } });
    expect(none.body).toMatchObject({ data: [], total: 0 });
  });

  it('marks the system account that owns the starter blocks, which no change reaches', async () => {
    const listed = await t.call('GET', '/api/admin/users', {
      cookie: root.cookie,
      query: { email: 'starter-blocks@' },
    });
    expect(listed.body.data).toEqual([
      expect.objectContaining({ email: 'starter-blocks@pageblocks.invalid', is_blocked: true, is_system: true }),
    ]);
    const system = listed.body.data[0].id;
    for (const body of [{ is_blocked: false }, { is_admin: true }, { is_blocked: true }]) {
      const r = await t.call('PUT', `/api/admin/users/${system}`, { cookie: root.cookie, body });
      expect(r.status, JSON.stringify(body)).toBe(403);
      expect(r.body.error).toMatch(/system account that owns the starter blocks/);
    }
    const after = await t.call('GET', '/api/admin/users', { cookie: root.cookie, query: { email: 'starter-blocks@' } });
    expect(after.body.data[0]).toMatchObject({ is_blocked: true, is_admin: false });
    // Every other account is a person's.
    const all = await t.call('GET', '/api/admin/users', { cookie: root.cookie, query: { limit: 200 } });
    expect(all.body.data.filter((u: { is_system: boolean }) => u.is_system)).toHaveLength(1);
  });

  it('is for administrators only, on the cookie contour only', async () => {
    const user = await newUser(t);
    const r = await t.call('GET', '/api/admin/users', { cookie: user.cookie });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('Administrators only.');
    expect((await t.call('GET', '/api/admin/users')).status).toBe(401);
    expect((await t.call('GET', '/api/admin/users', { key: root.key })).status).toBe(401);
  });
});
