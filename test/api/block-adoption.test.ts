/**
 * Issue 29, point 8: `GET /blocks/{id}/adoption` counts the caller's
 * instances on each revision, with their pages; `GET /blocks/{id}/upgrades`
 * lists the caller's upgrade sets of a block, newest first, so that one made
 * earlier can be reverted again. Both contours, both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startWithTwoUsers, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

let t: TestApp, user: TestUser, other: TestUser, site: { id: number };

beforeAll(async () => ({ t, user, other, site } = await startWithTwoUsers()));
afterAll(() => t.close());

const fields = [{ name: 'title', type: 'string', required: true, max_length: 60 }];

/** Zeta: two instances, Alpha: one, then 1.1; Alpha gains one on 1.1. Another user's page holds one too. */
async function used() {
  const block = await createBlock(t, user, { name: 'Card', template: '<h2>{{ title }}</h2>', schema_content: fields });
  const on = (title: string) => ({ block_id: block.id, placeholder_values: { title } });
  const zeta = await createPage(t, user, { name: 'Zeta', site_id: site.id, blocks: [on('a'), on('b')] });
  const alpha = await createPage(t, user, { name: 'Alpha', site_id: site.id, blocks: [on('c')] });
  const next = await t.call('PUT', `/api/v1/blocks/${block.id}`, {
    key: user.key,
    body: { template: '<h3>{{ title }}</h3>' },
  });
  expect(next.body.version_bump).toBe('minor');
  const added = await t.call('POST', `/api/v1/pages/${alpha.id}/blocks`, {
    key: user.key,
    body: { blocks: [{ block_id: block.id, placeholder_values: { title: 'd' } }] },
  });
  expect(added.status).toBe(201);
  return { block, zeta, alpha };
}

describe('adoption', () => {
  it('counts instances by revision, newest first, with their pages by name, on both contours', async () => {
    const { block, zeta, alpha } = await used();
    const expected = {
      block_id: block.id,
      version: { major: 1, minor: 1 },
      instances: 4,
      pages: 2,
      revisions: [
        {
          version: { major: 1, minor: 1 },
          current: true,
          instances: 1,
          pages: [{ id: alpha.id, name: 'Alpha', instances: 1 }],
        },
        {
          version: { major: 1, minor: 0 },
          current: false,
          instances: 3,
          pages: [
            { id: alpha.id, name: 'Alpha', instances: 1 },
            { id: zeta.id, name: 'Zeta', instances: 2 },
          ],
        },
      ],
    };
    const byKey = await t.call('GET', `/api/v1/blocks/${block.id}/adoption`, { key: user.key });
    expect(byKey.status).toBe(200);
    expect(byKey.body).toEqual(expected);
    const byCookie = await t.call('GET', `/api/blocks/${block.id}/adoption`, { cookie: user.cookie });
    expect(byCookie.status).toBe(200);
    expect(byCookie.body).toEqual(expected);

    // After upgrading everywhere, every instance is on 1.1.
    expect((await t.call('POST', `/api/v1/blocks/${block.id}/upgrades`, { key: user.key, body: {} })).status).toBe(200);
    const after = await t.call('GET', `/api/v1/blocks/${block.id}/adoption`, { key: user.key });
    expect(after.body.revisions).toEqual([
      {
        version: { major: 1, minor: 1 },
        current: true,
        instances: 4,
        pages: [
          { id: alpha.id, name: 'Alpha', instances: 2 },
          { id: zeta.id, name: 'Zeta', instances: 2 },
        ],
      },
    ]);
  });

  it("counts only the caller's instances; another user's private block is 403, an unknown one 404", async () => {
    const { block } = await used();
    const own = await createBlock(t, other, { name: 'Theirs', template: '<p>{{ title }}</p>', schema_content: fields });
    const none = await t.call('GET', `/api/v1/blocks/${own.id}/adoption`, { key: other.key });
    expect(none.body).toMatchObject({ instances: 0, pages: 0, revisions: [] });
    expect((await t.call('GET', `/api/v1/blocks/${block.id}/adoption`, { key: other.key })).status).toBe(403);
    expect((await t.call('GET', '/api/v1/blocks/999999/adoption', { key: user.key })).status).toBe(404);
  });
});

describe('upgrade sets of a block', () => {
  it('lists them newest first with their pages, reverted ones marked, on both contours, and pages through them', async () => {
    const { block, zeta, alpha } = await used();
    const first = await t.call('POST', `/api/v1/blocks/${block.id}/upgrades`, {
      key: user.key,
      body: { pages: [zeta.id] },
    });
    const second = await t.call('POST', `/api/blocks/${block.id}/upgrades`, {
      cookie: user.cookie,
      body: { pages: [alpha.id] },
    });
    expect([first.status, second.status]).toEqual([200, 200]);
    const reverted = await t.call('POST', `/api/v1/upgrade-sets/${first.body.id}/revert`, { key: user.key, body: {} });
    expect(reverted.status).toBe(200);

    const list = await t.call('GET', `/api/v1/blocks/${block.id}/upgrades`, { key: user.key });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
    expect(list.body.data).toEqual([
      {
        id: second.body.id,
        block_id: block.id,
        to: { major: 1, minor: 1 },
        created_at: second.body.created_at,
        reverted_at: null,
        pages: second.body.pages,
      },
      { ...reverted.body, pages: first.body.pages },
    ]);
    expect(list.body.data[1].reverted_at).toEqual(expect.any(String));
    const byCookie = await t.call('GET', `/api/blocks/${block.id}/upgrades`, {
      cookie: user.cookie,
      query: { limit: 1, offset: 1 },
    });
    expect(byCookie.body).toMatchObject({ total: 2, limit: 1, offset: 1, data: [{ id: first.body.id }] });
  });

  it("shows no other user's sets; an unreadable block is 403", async () => {
    const { block } = await used();
    expect((await t.call('POST', `/api/v1/blocks/${block.id}/upgrades`, { key: user.key, body: {} })).status).toBe(200);
    expect((await t.call('GET', `/api/v1/blocks/${block.id}/upgrades`, { key: other.key })).status).toBe(403);
    const bad = await t.call('GET', `/api/v1/blocks/${block.id}/upgrades`, { key: user.key, query: { limit: 0 } });
    expect(bad.status).toBe(400);
  });
});
