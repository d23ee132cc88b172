/**
 * Which changes make which webhook events, on the configured database, with a
 * real fake CMS and a receiver on loopback: page.created/updated/deleted (an
 * instance's values and a version's restore are updates too),
 * page.published (publish and publish-update), publication.failed (a
 * provider's refusal, now or as a scheduled run's final outcome),
 * page.scheduled, block.revised with its version_bump, page.outdated for a
 * page left on the older revision, and block.deprecated for a global block's users.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { WEBHOOK_EVENTS } from '../../src/modules/webhooks/webhooks.js';
import { startApp, type TestApp } from '../support/app.js';
import { admin, newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';
import { expectDocumented, startReceiver, until, type Receiver } from '../support/webhook-receiver.js';

const JOBS = { JOB_RETRY_LIMIT: '1', JOB_RETRY_DELAY_SECONDS: '1', JOB_POLL_SECONDS: '0.5' };
let t: TestApp;
let fake: FakeFourcms;
let receiver: Receiver;
let user: TestUser;
let other: TestUser;
let siteId: number;

beforeAll(async () => {
  fake = await startFakeFourcms({ token: 'fake-token-123' });
  receiver = await startReceiver();
  t = await startApp({ env: JOBS, overrides: { providerTimeoutMs: 4_000 } });
  user = await newUser(t);
  other = await newUser(t);
  siteId = (await newSite(t, user)).id;
  const configured = await t.call('PUT', `/api/v1/sites/${siteId}/provider/fourcms`, {
    key: user.key,
    body: { base_url: fake.url, token: fake.token },
  });
  expect(configured.status).toBe(200);
  for (const [who, path] of [
    [user, '/user'],
    [other, '/other'],
  ] as const) {
    const r = await t.call('POST', '/api/v1/webhooks', {
      key: who.key,
      body: { url: receiver.url(path), events: [...WEBHOOK_EVENTS] },
    });
    expect(r.status).toBe(201);
  }
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
  await fake?.close();
});

type Event = { type: string; data: Record<string, any> };
const events = (path = '/user'): Event[] => receiver.at(path).map((r) => JSON.parse(r.body) as Event);
/** Waits for an event of `type` matching `data`, and answers it. */
const heard = (type: string, data: Record<string, unknown>, path = '/user') =>
  until(
    async () => events(path).find((e) => e.type === type && Object.entries(data).every(([k, v]) => e.data[k] === v)),
    (found) => found !== undefined,
    20_000,
  ) as Promise<Event>;
const quiet = () => new Promise((resolve) => setTimeout(resolve, 1200));

describe('webhook events', { timeout: 60_000 }, () => {
  it('page.created, page.updated and page.deleted, with the page', async () => {
    const block = await createBlock(t, user, { name: 'Plain', template: '<p>{{ title }}</p>' });
    const page = await createPage(t, user, {
      name: 'News',
      site_id: siteId,
      blocks: [{ block_id: block.id, placeholder_values: { title: 'x' } }],
    });
    expect((await heard('page.created', { page_id: page.id })).data).toMatchObject({ site_id: siteId, name: 'News' });
    const put = await t.call('PUT', `/api/v1/pages/${page.id}`, { key: user.key, body: { name: 'News 2' } });
    expect(put.status).toBe(200);
    expect((await heard('page.updated', { page_id: page.id })).data).toMatchObject({ name: 'News 2' });
    // A page's instances and a version's restore change it too.
    const values = await t.call('PUT', `/api/v1/pages/${page.id}/blocks/${page.blocks[0].id}`, {
      key: user.key,
      body: { placeholder_values: { title: 'y' } },
    });
    expect(values.status).toBe(200);
    const changed = await heard('page.updated', { page_id: page.id, change: 'block.values' });
    expect(changed.data).toMatchObject({ name: 'News 2', site_id: siteId });
    const restored = await t.call('POST', `/api/v1/pages/${page.id}/versions/1/restore`, { key: user.key });
    expect(restored.status).toBe(200);
    await heard('page.updated', { page_id: page.id, change: 'version.restored', restored_version: 1 });
    expect((await t.call('DELETE', `/api/v1/pages/${page.id}`, { key: user.key })).status).toBe(204);
    await heard('page.deleted', { page_id: page.id });
    await quiet();
    // Never to another user's endpoint.
    expect(events('/other').filter((e) => e.data.page_id === page.id)).toEqual([]);
  });

  it('page.published for publish and publish-update; publication.failed for a refusal', async () => {
    const block = await createBlock(t, user, { name: 'P', template: '<p>{{ title }}</p>' });
    const page = await createPage(t, user, {
      name: 'Launch',
      site_id: siteId,
      blocks: [{ block_id: block.id, placeholder_values: { title: 'x' } }],
    });
    const publish = (action: string, body: unknown) =>
      t.call('POST', `/api/v1/pages/${page.id}/${action}`, { key: user.key, body });
    fake.failNext('500');
    expect((await publish('publish', { rubric_ids: [1] })).status).toBe(502);
    const failed = await heard('publication.failed', { page_id: page.id });
    expect(failed.data).toMatchObject({ scheduled: false });
    expect(failed.data.error).toContain('500');
    expect((await publish('publish', { rubric_ids: [1] })).status).toBe(200);
    const first = await heard('page.published', { page_id: page.id, update: false });
    expect(first.data).toMatchObject({ published_version: page.version, scheduled: false });
    expect((await publish('publish-update', {})).status).toBe(200);
    await heard('page.published', { page_id: page.id, update: true });
  });

  it('page.scheduled, and publication.failed once when a scheduled run fails for good', async () => {
    const block = await createBlock(t, user, { name: 'S', template: '<p>{{ title }}</p>' });
    const page = await createPage(t, user, {
      name: 'Later',
      site_id: siteId,
      blocks: [{ block_id: block.id, placeholder_values: { title: 'x' } }],
    });
    const at = new Date(Date.now() + 1000).toISOString();
    fake.failNext('500');
    fake.failNext('500');
    const scheduled = await t.call('POST', `/api/v1/pages/${page.id}/schedule`, {
      key: user.key,
      body: { publish_at: at, rubric_ids: [1] },
    });
    expect(scheduled.status).toBe(200);
    expect((await heard('page.scheduled', { page_id: page.id })).data).toMatchObject({
      publish_at: at,
      mode: 'publish',
    });
    const failed = await heard('publication.failed', { page_id: page.id });
    expect(failed.data).toMatchObject({ scheduled: true, attempts: 2 });
    await quiet();
    expect(events().filter((e) => e.type === 'publication.failed' && e.data.page_id === page.id)).toHaveLength(1);
  });

  it('block.revised with its version_bump, and page.outdated for a page left behind', async () => {
    const block = await createBlock(t, user, { name: 'Rev', template: '<p>{{ title }}</p>' });
    const page = await createPage(t, user, {
      name: 'Pinned',
      site_id: siteId,
      blocks: [{ block_id: block.id, placeholder_values: { title: 'x' } }],
    });
    const revised = await t.call('PUT', `/api/v1/blocks/${block.id}`, {
      key: user.key,
      body: { template: '<p class="new">{{ title }}</p>' },
    });
    expect(revised.status).toBe(200);
    const event = await heard('block.revised', { block_id: block.id });
    expect(event.data).toMatchObject({ version_bump: revised.body.version_bump, version: '1.1', scope: 'user' });
    const outdated = await heard('page.outdated', { page_id: page.id });
    expect(outdated.data).toMatchObject({ block_id: block.id, block: { version_bump: revised.body.version_bump } });
    // A dry run of the next revision sends nothing.
    const before = events().length;
    const dry = await t.call('PUT', `/api/v1/blocks/${block.id}?dry_run=1`, {
      key: user.key,
      body: { template: '<p class="dry">{{ title }}</p>' },
    });
    expect(dry.status).toBe(200);
    await quiet();
    expect(events().length).toBe(before);
  });

  it('block.deprecated reaches the users of a global block', async () => {
    const root = await admin(t);
    const global = await t.call('POST', '/api/admin/blocks', {
      cookie: root.cookie,
      body: { name: 'Global hero', template: '<h1>{{ title }}</h1>' },
    });
    expect(global.status).toBe(201);
    await createPage(t, other, {
      name: 'Uses it',
      site_id: (await newSite(t, other)).id,
      blocks: [{ block_id: global.body.id, placeholder_values: { title: 'x' } }],
    });
    const deprecated = await t.call('PUT', `/api/admin/blocks/${global.body.id}/deprecation`, {
      cookie: root.cookie,
      body: { is_deprecated: true },
    });
    expect(deprecated.status).toBe(200);
    expect((await heard('block.deprecated', { block_id: global.body.id }, '/other')).data).toMatchObject({
      scope: 'global',
    });
    await quiet();
    expect(events('/user').filter((e) => e.data.block_id === global.body.id)).toEqual([]);
  });

  // Last: it reads every event the tests above made.
  it('sends each event as the OpenAPI document describes it, no field more nor less', async () => {
    const { webhooks } = (await t.call('GET', '/api/v1/docs.json')).body;
    const types = expectDocumented(webhooks, [...receiver.at('/user'), ...receiver.at('/other')]);
    expect([...types].sort()).toEqual([...WEBHOOK_EVENTS].sort());
  });
});
