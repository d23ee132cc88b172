import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { admin, newSite, newUser, type TestUser } from '../support/factories.js';

let t: TestApp;
let user: TestUser;
let other: TestUser;
let site: { id: number };

beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  other = await newUser(t);
  site = await newSite(t, user);
});
afterAll(() => t.close());

const folder = async (body: Record<string, unknown>, as = user) =>
  t.call('POST', '/api/v1/folders', { key: as.key, body });

describe('folders', () => {
  it('builds a tree inside a site, moves folders and refuses cycles and foreign parents', async () => {
    const root = (await folder({ site_id: site.id, name: 'Blog' })).body;
    const child = (await folder({ site_id: site.id, name: '2026', parent_id: root.id })).body;
    const grandchild = (await folder({ site_id: site.id, name: 'Jan', parent_id: child.id })).body;
    expect(grandchild).toMatchObject({ site_id: site.id, parent_id: child.id, name: 'Jan' });
    expect((await t.call('GET', '/api/v1/folders', { key: user.key, query: { site_id: site.id } })).body.total).toBe(3);

    const cycle = await t.call('PUT', `/api/v1/folders/${root.id}`, {
      key: user.key,
      body: { parent_id: grandchild.id },
    });
    expect(cycle.status).toBe(422);
    expect(cycle.body.errors[0].path).toBe('parent_id');
    const self = await t.call('PUT', `/api/v1/folders/${root.id}`, { key: user.key, body: { parent_id: root.id } });
    expect(self.status).toBe(422);

    const otherSite = await newSite(t, user, 'Other site');
    const crossSite = await folder({ site_id: otherSite.id, name: 'x', parent_id: root.id });
    expect(crossSite.status).toBe(422);
    expect(crossSite.body.errors[0].path).toBe('parent_id');
    const theirSite = await newSite(t, other);
    const theirs = (await folder({ site_id: theirSite.id, name: 'Theirs' }, other)).body;
    const foreign = await folder({ site_id: site.id, name: 'x', parent_id: theirs.id });
    expect(foreign.status).toBe(422);
    expect((await folder({ site_id: theirSite.id, name: 'x' })).status).toBe(403);

    const moved = await t.call('PUT', `/api/v1/folders/${grandchild.id}`, {
      key: user.key,
      body: { parent_id: null, name: 'January' },
    });
    expect(moved.body).toMatchObject({ parent_id: null, name: 'January' });
    expect((await t.call('GET', `/api/v1/folders/${root.id}`, { key: user.key })).body.parent_id).toBeNull();
  });

  it('puts pages in folders of their site only; deleting a folder keeps its pages', async () => {
    const f = (await folder({ site_id: site.id, name: 'Docs' })).body;
    const page = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: { name: 'In folder', site_id: site.id, folder_id: f.id },
    });
    expect(page.body.folder_id).toBe(f.id);
    const otherSite = await newSite(t, user, 'Third');
    const wrong = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: { name: 'x', site_id: otherSite.id, folder_id: f.id },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].path).toBe('folder_id');
    expect((await t.call('DELETE', `/api/v1/folders/${f.id}`, { key: user.key })).status).toBe(204);
    const after = await t.call('GET', `/api/v1/pages/${page.body.id}`, { key: user.key });
    expect(after.body.folder_id).toBeNull();
  });
});

describe('layouts', () => {
  it('creates, changes, forks global layouts and refuses to delete one a site uses', async () => {
    const boss = await admin(t);
    const global = await t.call('POST', '/api/admin/layouts', {
      cookie: boss.cookie,
      body: { name: 'Classic', template: '<main>{{ content }}</main>' },
    });
    expect(global.status).toBe(201);
    expect(global.body.scope).toBe('global');
    const fork = await t.call('POST', `/api/v1/layouts/${global.body.id}/fork`, { key: user.key });
    expect(fork.body).toMatchObject({
      name: 'Classic (fork)',
      scope: 'user',
      forked_from_id: global.body.id,
      template: '<main>{{ content }}</main>',
    });
    expect((await t.call('GET', `/api/v1/layouts/${global.body.id}`, { key: user.key })).body.fork_count).toBe(1);
    expect(
      (await t.call('PUT', `/api/v1/layouts/${global.body.id}`, { key: user.key, body: { name: 'x' } })).status,
    ).toBe(403);

    const mine = await t.call('POST', '/api/v1/layouts', { key: user.key, body: { name: 'Mine', css: 'main{}' } });
    expect((await t.call('POST', `/api/v1/layouts/${mine.body.id}/fork`, { key: user.key })).status).toBe(400);
    expect((await t.call('GET', `/api/v1/layouts/${mine.body.id}`, { key: other.key })).status).toBe(403);
    const badTag = await t.call('PUT', `/api/v1/layouts/${mine.body.id}`, { key: user.key, body: { tags: [999999] } });
    expect(badTag.status).toBe(422);
    expect(badTag.body.errors[0].path).toBe('tags[0]');

    const bound = await t.call('PUT', `/api/sites/${site.id}`, {
      cookie: user.cookie,
      body: { layout_id: mine.body.id },
    });
    expect(bound.body.layout_id).toBe(mine.body.id);
    const refused = await t.call('DELETE', `/api/v1/layouts/${mine.body.id}`, { key: user.key });
    expect(refused.status).toBe(409);
    expect((await t.call('GET', `/api/v1/layouts/${mine.body.id}`, { key: user.key })).status).toBe(200);
    await t.call('PUT', `/api/sites/${site.id}`, { cookie: user.cookie, body: { layout_id: null } });
    expect((await t.call('DELETE', `/api/v1/layouts/${mine.body.id}`, { key: user.key })).status).toBe(204);
  });

  it("refuses to bind a site to another user's layout", async () => {
    const theirs = await t.call('POST', '/api/v1/layouts', { key: other.key, body: { name: 'Theirs' } });
    const r = await t.call('PUT', `/api/sites/${site.id}`, {
      cookie: user.cookie,
      body: { layout_id: theirs.body.id },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].path).toBe('layout_id');
  });
});
