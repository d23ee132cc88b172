import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

let t: TestApp;
let fake: FakeFourcms;
let user: TestUser;
let site: { id: number };
let block: { id: number };

beforeAll(async () => {
  fake = await startFakeFourcms({ token: 'fake-token-unpublished' });
  t = await startApp({ overrides: { providerTimeoutMs: 4_000 } });
  user = await newUser(t);
  site = await newSite(t, user);
  block = await createBlock(t, user, {
    name: 'Plain',
    template: '<p>{{ title }}</p>',
    schema_content: [{ name: 'title', type: 'string' }],
  });
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

const status = async (pageId: number, cookie?: string) =>
  (
    await t.call(
      'GET',
      `${cookie ? '/api' : '/api/v1'}/pages/${pageId}/publication`,
      cookie ? { cookie } : { key: user.key },
    )
  ).body;
const newPage = (name: string) =>
  createPage(t, user, {
    name,
    site_id: site.id,
    kind: 'template',
    blocks: [{ block_id: block.id, placeholder_values: { title: 'a' } }],
  });
const changed = async () =>
  (
    await t.call('GET', '/api/v1/pages', { key: user.key, query: { has_unpublished_changes: 1, limit: 200 } })
  ).body.data.map((p: { id: number }) => p.id);

describe('unpublished changes', () => {
  it('the publication status names the version sent and says when the page moved past it', async () => {
    const page = await newPage('Status');
    expect(await status(page.id)).toMatchObject({ published_version: null, has_unpublished_changes: false });

    const published = await t.call('POST', `/api/v1/pages/${page.id}/publish`, { key: user.key, body: {} });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ published_version: 1, has_unpublished_changes: false });
    expect(await status(page.id)).toMatchObject({ published_version: 1, has_unpublished_changes: false });

    // Any write after the publication: the site is behind.
    const edit = await t.call('PUT', `/api/v1/pages/${page.id}/blocks/${page.blocks[0].id}`, {
      key: user.key,
      body: { placeholder_values: { title: 'b' } },
    });
    expect(edit.body.version).toBe(2);
    expect(await status(page.id)).toMatchObject({ published_version: 1, has_unpublished_changes: true });
    expect(await status(page.id, user.cookie)).toMatchObject({ published_version: 1, has_unpublished_changes: true });

    const updated = await t.call('POST', `/api/v1/pages/${page.id}/publish-update`, { key: user.key, body: {} });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ published_version: 2, has_unpublished_changes: false });
    expect(await status(page.id)).toMatchObject({ published_version: 2, has_unpublished_changes: false });
  });

  it('a failed publish-update leaves the version sent as it was', async () => {
    const page = await newPage('Failing');
    await t.call('POST', `/api/v1/pages/${page.id}/publish`, { key: user.key, body: {} });
    await t.call('PUT', `/api/v1/pages/${page.id}`, { key: user.key, body: { name: 'Failing 2' } });
    fake.failNext('500');
    const failed = await t.call('POST', `/api/v1/pages/${page.id}/publish-update`, { key: user.key, body: {} });
    expect(failed.status).toBe(502);
    expect(await status(page.id)).toMatchObject({ published_version: 1, has_unpublished_changes: true });
  });

  it('GET /pages?has_unpublished_changes=1 lists exactly the published pages changed since', async () => {
    const never = await newPage('Never published');
    const current = await newPage('Current');
    const behind = await newPage('Behind');
    for (const page of [current, behind])
      expect((await t.call('POST', `/api/v1/pages/${page.id}/publish`, { key: user.key, body: {} })).status).toBe(200);
    await t.call('PUT', `/api/v1/pages/${behind.id}`, { key: user.key, body: { name: 'Behind 2' } });
    await t.call('PUT', `/api/v1/pages/${never.id}`, { key: user.key, body: { name: 'Never 2' } });
    const ids = await changed();
    expect(ids).toContain(behind.id);
    expect(ids).not.toContain(current.id);
    expect(ids).not.toContain(never.id);
    const all = await t.call('GET', '/api/v1/pages', {
      key: user.key,
      query: { has_unpublished_changes: 0, limit: 200 },
    });
    expect(all.body.data.map((p: { id: number }) => p.id)).toEqual(expect.arrayContaining([never.id, current.id]));
    expect(
      (await t.call('GET', '/api/v1/pages', { key: user.key, query: { has_unpublished_changes: 2 } })).status,
    ).toBe(400);
  });
});
