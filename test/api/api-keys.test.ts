import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { admin, newKey, newUser } from '../support/factories.js';

let t: TestApp;
let now = new Date('2026-01-01T00:00:00Z');
beforeAll(async () => {
  t = await startApp({ overrides: { clock: { now: () => now } } });
});
afterAll(() => t.close());

describe('creating and listing keys', () => {
  it('shows the key once: pb_ + 64 hex, with a visible prefix; only its SHA-256 is stored', async () => {
    const user = await newUser(t);
    const created = await t.call('POST', '/api/api-keys', { cookie: user.cookie, body: { title: 'CI' } });
    expect(created.status).toBe(201);
    const { key, prefix, title, id } = created.body;
    expect(key).toMatch(/^pb_[0-9a-f]{64}$/);
    expect(key).toHaveLength(67);
    expect(key.startsWith(prefix)).toBe(true);
    expect(title).toBe('CI');

    const row = await t.app.database.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(key);

    const list = await t.call('GET', '/api/api-keys', { cookie: user.cookie });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(list.text).not.toContain(key);
    expect(list.body.data.every((k: Record<string, unknown>) => !('key' in k))).toBe(true);
  });

  it.each([
    ['a title of 256 characters', { title: 'x'.repeat(256) }],
    ['an empty title', { title: '' }],
    ['a blank title', { title: '   ' }],
    ['no title', {}],
  ])('refuses %s at path title', async (_, body) => {
    const user = await newUser(t);
    const r = await t.call('POST', '/api/api-keys', { cookie: user.cookie, body });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].path).toBe('title');
    const list = await t.call('GET', '/api/api-keys', { cookie: user.cookie });
    expect(list.body.total).toBe(1); // only the factory's key
  });

  it('accepts a title of exactly 255 characters', async () => {
    const user = await newUser(t);
    const r = await t.call('POST', '/api/api-keys', { cookie: user.cookie, body: { title: 'x'.repeat(255) } });
    expect(r.status).toBe(201);
  });
});

describe('authenticating with a key', () => {
  it('lets a key in and answers 401 with the documented texts otherwise', async () => {
    const user = await newUser(t);
    expect((await t.call('GET', '/api/v1/sites', { key: user.key })).status).toBe(200);

    const missing = await t.call('GET', '/api/v1/sites');
    expect(missing.status).toBe(401);
    expect(missing.body.error).toMatch(/API key is required.*Authorization: Bearer pb_/);

    const unknown = await t.call('GET', '/api/v1/sites', { key: `pb_${'0'.repeat(64)}` });
    expect(unknown.body).toEqual({ error: 'Invalid API key.' });
    const noPrefix = await t.call('GET', '/api/v1/sites', { key: user.key.slice(3) });
    expect(noPrefix.status).toBe(401);
    expect(noPrefix.body).toEqual({ error: 'Invalid API key.' });
    const malformed = await t.call('GET', '/api/v1/sites', { key: 'pb_xyz' });
    expect(malformed.body).toEqual({ error: 'Invalid API key.' });
  });

  it('rejects a key in the query string or in another header, even a valid one', async () => {
    const user = await newUser(t);
    const inQuery = await t.call('GET', '/api/v1/sites', { query: { api_key: user.key } });
    expect(inQuery.status).toBe(401);
    expect(inQuery.body.error).toMatch(/only in the Authorization header/);
    const inHeader = await t.call('GET', '/api/v1/sites', { headers: { 'x-api-key': user.key } });
    expect(inHeader.status).toBe(401);
    const both = await t.call('GET', '/api/v1/sites', { key: user.key, query: { api_key: user.key } });
    expect(both.status).toBe(401);
  });

  it('does not take a session cookie for a key', async () => {
    const user = await newUser(t);
    const r = await t.call('GET', '/api/v1/sites', { cookie: user.cookie });
    expect(r.status).toBe(401);
    expect(r.body.error).toMatch(/API key is required/);
  });

  it('stops a deleted key at the very next request', async () => {
    const user = await newUser(t);
    const list = await t.call('GET', '/api/api-keys', { cookie: user.cookie });
    const id = list.body.data[0].id;
    expect((await t.call('GET', '/api/v1/sites', { key: user.key })).status).toBe(200);
    expect((await t.call('DELETE', `/api/api-keys/${id}`, { cookie: user.cookie })).status).toBe(204);
    const after = await t.call('GET', '/api/v1/sites', { key: user.key });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: 'Invalid API key.' });
  });

  it("answers 404 for another user's key and leaves it working", async () => {
    const owner = await newUser(t);
    const other = await newUser(t);
    const id = (await t.call('GET', '/api/api-keys', { cookie: owner.cookie })).body.data[0].id;
    const r = await t.call('DELETE', `/api/api-keys/${id}`, { cookie: other.cookie });
    expect(r.status).toBe(404);
    expect((await t.call('GET', '/api/v1/sites', { key: owner.key })).status).toBe(200);
  });

  it('writes last_used_at at most once a minute per key', async () => {
    const user = await newUser(t);
    const lastUsed = async () =>
      (await t.call('GET', '/api/api-keys', { cookie: user.cookie })).body.data[0].last_used_at;
    expect(await lastUsed()).toBeNull();
    now = new Date('2026-01-01T00:00:00Z');
    await t.call('GET', '/api/v1/sites', { key: user.key });
    expect(await lastUsed()).toBe('2026-01-01T00:00:00.000Z');
    now = new Date('2026-01-01T00:00:59Z');
    await t.call('GET', '/api/v1/sites', { key: user.key });
    expect(await lastUsed()).toBe('2026-01-01T00:00:00.000Z');
    now = new Date('2026-01-01T00:01:01Z');
    await t.call('GET', '/api/v1/sites', { key: user.key });
    expect(await lastUsed()).toBe('2026-01-01T00:01:01.000Z');
  });

  it("gives a blocked user's key 403 on GET /sites, and works again once unblocked", async () => {
    const user = await newUser(t);
    const boss = await admin(t);
    const blocked = await t.call('PUT', `/api/admin/users/${user.id}`, {
      cookie: boss.cookie,
      body: { is_blocked: true },
    });
    expect(blocked.status).toBe(200);
    expect(blocked.body.user.is_blocked).toBe(true);
    const r = await t.call('GET', '/api/v1/sites', { key: user.key });
    expect(r.status).toBe(403);
    expect(r.body.error).toMatch(/blocked/);
    expect((await t.call('POST', '/api/api-keys', { cookie: user.cookie, body: { title: 'x' } })).status).toBe(403);
    await t.call('PUT', `/api/admin/users/${user.id}`, { cookie: boss.cookie, body: { is_blocked: false } });
    expect((await t.call('GET', '/api/v1/sites', { key: user.key })).status).toBe(200);
  });

  it('sees exactly the data of its owner', async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    await t.call('POST', '/api/sites', { cookie: a.cookie, body: { name: 'A site' } });
    const second = await newKey(t, a.cookie);
    const asA = await t.call('GET', '/api/v1/sites', { key: second });
    const asB = await t.call('GET', '/api/v1/sites', { key: b.key });
    expect(asA.body.data.map((s: { name: string }) => s.name)).toEqual(['A site']);
    expect(asB.body.total).toBe(0);
  });
});
