import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkIntegrity } from '../../src/db/integrity.js';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage, heroFields } from '../support/library.js';

/* PAGE_HISTORY_LIMIT: a page keeps its last versions, and only the states those name. */

let t: TestApp;
let user: TestUser;
let site: { id: number };
let hero: { id: number };
let fake: FakeFourcms;

beforeAll(async () => {
  fake = await startFakeFourcms({ token: 'fake-token-123' });
  t = await startApp({ env: { PAGE_HISTORY_LIMIT: '3' }, overrides: { providerTimeoutMs: 4_000 } });
  user = await newUser(t);
  site = await newSite(t, user);
  hero = await createBlock(t, user, { name: 'Hero', schema_content: heroFields });
  const configured = await t.call('PUT', `/api/v1/sites/${site.id}/provider/fourcms`, {
    key: user.key,
    body: { base_url: fake.url, token: fake.token },
  });
  expect(configured.status).toBe(200);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const call = (method: string, path: string, body?: unknown) =>
  t.call(method, path, { key: user.key, ...(body !== undefined && { body }) });

const kept = async (pageId: number) => {
  const { db } = t.app.database;
  const numbers = (
    await db.selectFrom('page_versions').select('number').where('page_id', '=', pageId).orderBy('number').execute()
  ).map((v) => v.number);
  const states = (
    await db.selectFrom('page_block_states').select('id').where('page_id', '=', pageId).orderBy('id').execute()
  ).map((s) => s.id);
  return { numbers, states };
};

describe('PAGE_HISTORY_LIMIT', () => {
  it('keeps the last versions, and drops the states no kept version names', async () => {
    const page = await createPage(t, user, {
      name: 'Bounded',
      site_id: site.id,
      blocks: [
        { block_id: hero.id, placeholder_values: { title: 'a0' } },
        { block_id: hero.id, placeholder_values: { title: 'b0' } },
      ],
    });
    const [a, b] = page.blocks.map((x: any) => x.id);
    for (let i = 1; i <= 5; i++) {
      const r = await call('PUT', `/api/v1/pages/${page.id}/blocks/${a}`, { placeholder_values: { title: `a${i}` } });
      expect(r.status).toBe(200);
    }
    // Versions 4, 5, 6 remain: a's states of 4..6, and b's first state (named by all three).
    const { numbers, states } = await kept(page.id);
    expect(numbers).toEqual([4, 5, 6]);
    expect(states).toHaveLength(4);
    const values = await t.app.database.db
      .selectFrom('page_block_states')
      .select(['page_block_id', 'placeholder_values'])
      .where('page_id', '=', page.id)
      .orderBy('id')
      .execute();
    expect(values.map((v) => [v.page_block_id, JSON.parse(v.placeholder_values).title])).toEqual([
      [b, 'b0'],
      [a, 'a3'],
      [a, 'a4'],
      [a, 'a5'],
    ]);
    expect(await checkIntegrity(t.app.database.db)).toEqual([]);
  });

  it('marks the version a publication sent, and keeps it past the limit', async () => {
    const page = await createPage(t, user, {
      name: 'Published',
      site_id: site.id,
      blocks: [{ block_id: hero.id, placeholder_values: { title: 'v1' } }],
    });
    const pb = page.blocks[0].id;
    const edit = async (title: string) =>
      expect(
        (await call('PUT', `/api/v1/pages/${page.id}/blocks/${pb}`, { placeholder_values: { title } })).status,
      ).toBe(200);
    await edit('v2');
    expect((await call('POST', `/api/v1/pages/${page.id}/publish`, { rubric_ids: [1] })).status).toBe(200);
    for (const title of ['v3', 'v4', 'v5']) await edit(title);
    expect((await call('POST', `/api/v1/pages/${page.id}/publish-update`, {})).status).toBe(200);
    await edit('v6');
    await edit('v7');
    const list = await call('GET', `/api/v1/pages/${page.id}/versions`);
    // At most 3, the published ones never the ones that go: the two published and the latest.
    expect(list.body.data.map((v: any) => [v.number, v.published])).toEqual([
      [7, false],
      [5, true],
      [2, true],
    ]);
    const v2 = await call('GET', `/api/v1/pages/${page.id}/versions/2`);
    expect(v2.body.blocks[0].placeholder_values).toEqual({ title: 'v2' });
    expect(await checkIntegrity(t.app.database.db)).toEqual([]);
  });
});
