/**
 * The page writes that change many pages at once or move an instance across
 * revisions make `page.updated` like every other page write, once per page,
 * in the write's own transaction: an upgrade set and its revert (none for a
 * dry run or a refused set), one instance's migration, one instance's
 * upgrade, upgrade-all and a version's restore. And a scheduled publication
 * whose author was blocked meanwhile says `publication.failed` with the
 * reason. On the configured database, with a receiver on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { startApp, type TestApp } from '../support/app.js';
import { admin, newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';
import { expectDocumented, startReceiver, until, type Receiver } from '../support/webhook-receiver.js';

const JOBS = { JOB_RETRY_LIMIT: '1', JOB_RETRY_DELAY_SECONDS: '1', JOB_POLL_SECONDS: '0.5' };
let t: TestApp;
let fake: FakeFourcms;
let receiver: Receiver;
let user: TestUser;
let siteId: number;

const subscribe = async (who: TestUser, path: string, events: string[]) => {
  const r = await t.call('POST', '/api/v1/webhooks', { key: who.key, body: { url: receiver.url(path), events } });
  expect(r.status).toBe(201);
};

beforeAll(async () => {
  fake = await startFakeFourcms({ token: 'fake-token-123' });
  receiver = await startReceiver();
  t = await startApp({ env: JOBS });
  user = await newUser(t);
  siteId = (await newSite(t, user)).id;
  await subscribe(user, '/user', ['page.updated']);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await receiver?.close();
  await fake?.close();
});

type Event = { type: string; data: Record<string, any> };
const events = (path = '/user'): Event[] => receiver.at(path).map((r) => JSON.parse(r.body) as Event);
/** The page.updated events of these pages, each as [page_id, change]. */
const updates = (pageIds: number[]) =>
  events()
    .filter((e) => e.type === 'page.updated' && pageIds.includes(e.data.page_id))
    .map((e) => [e.data.page_id, e.data.change]);
/** Waits until `count` updates of these pages have come, then a while longer: none more may come. */
async function settled(pageIds: number[], count: number) {
  await until(
    async () => updates(pageIds).length,
    (n) => n >= count,
    20_000,
  );
  await new Promise((resolve) => setTimeout(resolve, 1500));
  return updates(pageIds);
}

const fields = [{ name: 'title', type: 'string', required: true, max_length: 60 }];
const call = (method: 'POST' | 'PUT', path: string, body: unknown = {}, query: Record<string, number> = {}) =>
  t.call(method, `/api/v1${path}`, { key: user.key, body, query });

/** A block on two pages (two instances and one), then a minor revision: all three behind. */
async function behind() {
  const block = await createBlock(t, user, { name: 'Card', template: '<h2>{{ title }}</h2>', schema_content: fields });
  const on = (title: string) => ({ block_id: block.id, placeholder_values: { title } });
  const one = await createPage(t, user, { name: 'One', site_id: siteId, blocks: [on('a'), on('b')] });
  const two = await createPage(t, user, { name: 'Two', site_id: siteId, blocks: [on('c')] });
  const next = await call('PUT', `/blocks/${block.id}`, { template: '<h3>{{ title }}</h3>' });
  expect(next.body.version_bump).toBe('minor');
  return { block, one, two };
}

describe('page.updated from writes of many pages', { timeout: 90_000 }, () => {
  it('an upgrade set and its revert: one per page each; none for a dry run or a refused set', async () => {
    const { block, one, two } = await behind();
    const pages = [one.id, two.id];
    expect((await call('POST', `/blocks/${block.id}/upgrades`, {}, { dry_run: 1 })).status).toBe(200);
    const elsewhere = await createPage(t, user, { name: 'Empty', site_id: siteId });
    const refused = await call('POST', `/blocks/${block.id}/upgrades`, { pages: [one.id, elsewhere.id] });
    expect(refused.status).toBe(422);

    const set = await call('POST', `/blocks/${block.id}/upgrades`);
    expect(set.status).toBe(200);
    expect(set.body.pages).toHaveLength(2);
    // The dry run and the refusal sent nothing: only the set's two.
    expect((await settled(pages, 2)).sort()).toEqual([
      [one.id, 'upgrade_set.applied'],
      [two.id, 'upgrade_set.applied'],
    ]);
    const applied = events().filter((e) => e.data.change === 'upgrade_set.applied' && pages.includes(e.data.page_id));
    for (const event of applied) {
      const after = set.body.pages.find((p: any) => p.page_id === event.data.page_id);
      expect(event.data).toMatchObject({
        upgrade_set_id: set.body.id,
        block_id: block.id,
        version: after.version_after,
      });
    }

    expect((await call('POST', `/upgrade-sets/${set.body.id}/revert`, {}, { dry_run: 1 })).status).toBe(200);
    // Page two changed since the set: the revert without force is refused, and says nothing.
    expect((await call('PUT', `/pages/${two.id}`, { name: 'Two, renamed' })).status).toBe(200);
    expect((await call('POST', `/upgrade-sets/${set.body.id}/revert`)).status).toBe(409);
    const reverted = await call('POST', `/upgrade-sets/${set.body.id}/revert`, { force: true });
    expect(reverted.status).toBe(200);
    const all = await settled(pages, 5);
    expect(all.filter(([, change]) => change === 'upgrade_set.reverted').sort()).toEqual([
      [one.id, 'upgrade_set.reverted'],
      [two.id, 'upgrade_set.reverted'],
    ]);
    expect(all).toHaveLength(5);
  });

  it('upgrade-all, upgrading one instance, migrating one and a restore: one each', async () => {
    const { block, one, two } = await behind();
    const pages = [one.id, two.id];
    const [a, b] = one.blocks.map((x: { id: number }) => x.id);
    expect((await call('POST', `/pages/${two.id}/blocks/upgrade-all`, {}, { dry_run: 1 })).status).toBe(200);
    const all = await call('POST', `/pages/${two.id}/blocks/upgrade-all`);
    expect(all.body.upgraded).toHaveLength(1);
    expect((await call('POST', `/pages/${one.id}/blocks/${b}/upgrade`)).status).toBe(200);
    expect((await settled(pages, 2)).sort()).toEqual([
      [one.id, 'blocks.upgraded'],
      [two.id, 'blocks.upgraded'],
    ]);

    // 2.0: title renamed heading, carried by a migration.
    const major = await call('PUT', `/blocks/${block.id}`, {
      schema_content: [{ name: 'heading', type: 'string', required: true }],
      template: '<h2>{{ heading }}</h2>',
      migrations: [{ op: 'rename', from: 'title', to: 'heading' }],
    });
    expect(major.body.version_bump).toBe('major');
    expect((await call('POST', `/pages/${one.id}/blocks/${a}/migrate`, {}, { dry_run: 1 })).status).toBe(200);
    expect((await call('POST', `/pages/${one.id}/blocks/${a}/migrate`)).status).toBe(200);
    expect((await settled(pages, 3)).at(-1)).toEqual([one.id, 'blocks.upgraded']);
    // Page two's instance needs a major: upgrade-all moves nothing, yet makes its version as every
    // successful write does (the page's history shows it), and so its one page.updated.
    const none = await call('POST', `/pages/${two.id}/blocks/upgrade-all`);
    expect(none.body).toMatchObject({ upgraded: [], skipped_major: [{ id: two.blocks[0].id }] });
    expect((await settled(pages, 4)).at(-1)).toEqual([two.id, 'blocks.upgraded']);
    expect((await call('POST', `/pages/${one.id}/versions/1/restore`)).status).toBe(200);
    const last = await settled(pages, 5);
    expect(last.at(-1)).toEqual([one.id, 'version.restored']);
    expect(last).toHaveLength(5);
  });
});

describe('a scheduled publication whose author was blocked', { timeout: 60_000 }, () => {
  it('records the failure and says publication.failed with the reason', async () => {
    const author = await newUser(t);
    const site = (await newSite(t, author)).id;
    expect(
      (
        await t.call('PUT', `/api/v1/sites/${site}/provider/fourcms`, {
          key: author.key,
          body: { base_url: fake.url, token: fake.token },
        })
      ).status,
    ).toBe(200);
    await subscribe(author, '/author', ['publication.failed', 'page.published']);
    const block = await createBlock(t, author, { name: 'S', template: '<p>{{ title }}</p>' });
    const page = await createPage(t, author, {
      name: 'Later',
      site_id: site,
      blocks: [{ block_id: block.id, placeholder_values: { title: 'x' } }],
    });
    const scheduled = await t.call('POST', `/api/v1/pages/${page.id}/schedule`, {
      key: author.key,
      body: { publish_at: new Date(Date.now() + 3000).toISOString(), rubric_ids: [1] },
    });
    expect(scheduled.status).toBe(200);
    const root = await admin(t);
    const blocked = await t.call('PUT', `/api/admin/users/${author.id}`, {
      cookie: root.cookie,
      body: { is_blocked: true },
    });
    expect(blocked.status).toBe(200);

    const failed = await until(
      async () => events('/author').find((e) => e.type === 'publication.failed'),
      (found) => found !== undefined,
      30_000,
    );
    expect(failed!.data).toMatchObject({
      page_id: page.id,
      site_id: site,
      scheduled: true,
      error: 'The account that scheduled this publication can no longer publish.',
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(events('/author').map((e) => e.type)).toEqual(['publication.failed']);
    // The failure is recorded as before: unblocked, its author reads it.
    await t.call('PUT', `/api/admin/users/${author.id}`, { cookie: root.cookie, body: { is_blocked: false } });
    const status = await t.call('GET', `/api/v1/pages/${page.id}/publication`, { key: author.key });
    expect(status.body.last_scheduled_run).toMatchObject({ outcome: 'failed', error: failed!.data.error });
  });
});

it('sends these events as the OpenAPI document describes them', async () => {
  const { webhooks } = (await t.call('GET', '/api/v1/docs.json')).body;
  const types = expectDocumented(webhooks, [...receiver.at('/user'), ...receiver.at('/author')]);
  expect([...types].sort()).toEqual(['page.updated', 'publication.failed']);
});
