/**
 * Two instances of the service over one database (one PostgreSQL database
 * with DATABASE_URL, as in CI and as the README's "Running several instances"
 * says; one SQLite file otherwise, with no restart in between), requests
 * alternating between them. What one instance does, the other sees at once:
 * a key deleted, a session made or ended, the login throttle, a page written.
 * Work that must happen later happens once: scheduled publications run once
 * and each webhook event is delivered once, however many instances poll. What state lives where is in the
 * README, "Running several instances".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { startApp, storageOf, type TestApp } from '../support/app.js';
import { cookieFrom } from '../support/client.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';
import { startReceiver, until, type Receiver } from '../support/webhook-receiver.js';

const JOBS = { JOB_RETRY_LIMIT: '2', JOB_RETRY_DELAY_SECONDS: '1', JOB_POLL_SECONDS: '0.5' };
const THROTTLE = { freeFailures: 3 };
let a: TestApp;
let b: TestApp;
let fake: FakeFourcms;
let receiver: Receiver;
let user: TestUser;
let siteId: number;
let blockId: number;

beforeAll(async () => {
  fake = await startFakeFourcms({ token: 'fake-token-several' });
  receiver = await startReceiver();
  const options = { env: JOBS, overrides: { throttle: THROTTLE, providerTimeoutMs: 4_000 } };
  a = await startApp(options);
  b = await startApp({ ...options, storage: storageOf(a) });
  user = await newUser(a);
  siteId = (await newSite(b, user)).id;
  blockId = (await createBlock(a, user, { name: 'Plain', template: '<p>{{ title }}</p>' })).id;
  const configured = await b.call('PUT', `/api/v1/sites/${siteId}/provider/fourcms`, {
    key: user.key,
    body: { base_url: fake.url, token: fake.token },
  });
  expect(configured.status).toBe(200);
});
afterAll(async () => {
  await b?.stop();
  await a?.close();
  await fake?.close();
  await receiver?.close();
});

/** The instance a request goes to: a, b, a, b... */
let turn = 0;
const next = () => (turn++ % 2 === 0 ? a : b);

describe('two instances over one database', () => {
  it('a key deleted through one is refused by the other at once', async () => {
    const created = await a.call('POST', '/api/api-keys', { cookie: user.cookie, body: { title: 'shared' } });
    expect(created.status).toBe(201);
    // Both instances have taken the key (anything they keep of it is warm).
    for (const app of [a, b, a, b])
      expect((await app.call('GET', '/api/v1/sites', { key: created.body.key })).status).toBe(200);
    expect((await a.call('DELETE', `/api/api-keys/${created.body.id}`, { cookie: user.cookie })).status).toBe(204);
    expect((await b.call('GET', '/api/v1/sites', { key: created.body.key })).status).toBe(401);
    expect((await a.call('GET', '/api/v1/sites', { key: created.body.key })).status).toBe(401);
  });

  it('a session made on one works on the other, and ended on the other is ended on both', async () => {
    const login = await a.call('POST', '/api/auth/login', { body: { email: user.email, password: 'password-123' } });
    expect(login.status).toBe(200);
    const cookie = cookieFrom(login.headers);
    expect((await b.call('GET', '/api/auth/me', { cookie })).body.user.id).toBe(user.id);
    expect((await a.call('GET', '/api/auth/me', { cookie })).status).toBe(200);
    expect((await b.call('POST', '/api/auth/logout', { cookie })).status).toBeLessThan(300);
    expect((await a.call('GET', '/api/sites', { cookie })).status).toBe(401);
    expect((await b.call('GET', '/api/sites', { cookie })).status).toBe(401);
  });

  it('shares the login throttle: failures through one slow the next attempt through the other', async () => {
    const target = await newUser(a);
    const wrong = (app: TestApp) =>
      app.call('POST', '/api/auth/login', { body: { email: target.email, password: 'not-the-password' } });
    for (let i = 0; i < THROTTLE.freeFailures; i++) expect((await wrong(next())).status).toBe(401);
    const slowed = await wrong(next());
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('a page written through one is read through the other as written, never as it was', async () => {
    const page = await createPage(a, user, {
      name: 'Shared',
      site_id: siteId,
      blocks: [{ block_id: blockId, placeholder_values: { title: 'first' } }],
    });
    for (let round = 0; round < 6; round++) {
      const reader = round % 2 === 0 ? b : a;
      const writer = reader === a ? b : a;
      // The reader keeps its answer, then the other instance writes.
      expect(
        (await reader.call('GET', `/api/v1/pages/${page.id}`, { key: user.key, query: { with_blocks: 1 } })).status,
      ).toBe(200);
      const title = `round ${round}`;
      const put = await writer.call('PUT', `/api/v1/pages/${page.id}/blocks/${page.blocks[0].id}`, {
        key: user.key,
        body: { placeholder_values: { title } },
      });
      expect(put.status, put.text).toBe(200);
      const read = await reader.call('GET', `/api/v1/pages/${page.id}`, { key: user.key, query: { with_blocks: 1 } });
      expect(read.body.blocks[0].placeholder_values.title).toBe(title);
    }
  });

  it('runs each scheduled publication once, however many instances poll', async () => {
    const pages = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        createPage(next(), user, {
          name: `Scheduled ${i}`,
          kind: 'article',
          site_id: siteId,
          blocks: [{ block_id: blockId, placeholder_values: { title: `s${i}` } }],
        }),
      ),
    );
    const before = fake.requests.filter((r) => r.method === 'POST' && r.path === '/documents').length;
    const at = new Date(Date.now() + 1500).toISOString();
    for (const page of pages) {
      const r = await next().call('POST', `/api/v1/pages/${page.id}/schedule`, {
        key: user.key,
        body: { publish_at: at, rubric_ids: [1], name: `once ${page.id}` },
      });
      expect(r.status, r.text).toBe(200);
    }
    for (const page of pages) {
      const done = await until(
        async () => (await next().call('GET', `/api/v1/pages/${page.id}/publication`, { key: user.key })).body,
        (s) => s.last_scheduled_run !== null,
      );
      expect(done).toMatchObject({ is_published: true, last_scheduled_run: { outcome: 'published', attempts: 1 } });
    }
    // Time for a second run, were there one.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const sent = fake.requests
      .filter((r) => r.method === 'POST' && r.path === '/documents')
      .slice(before)
      .map((r) => (r.body as { title: string }).title)
      .sort();
    expect(sent).toEqual(pages.map((p) => `once ${p.id}`).sort());
  }, 60_000);

  it('delivers each webhook event once, whichever instance made it and whichever delivers it', async () => {
    const hook = await a.call('POST', '/api/v1/webhooks', {
      key: user.key,
      body: { url: receiver.url('/several'), events: ['page.created'] },
    });
    expect(hook.status, hook.text).toBe(201);
    const created = [];
    for (let i = 0; i < 8; i++) created.push(await createPage(next(), user, { name: `Hooked ${i}`, site_id: siteId }));
    await until(
      async () => receiver.at('/several').length,
      (n) => n >= created.length,
    );
    // Time for a second delivery, were there one.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const got = receiver.at('/several');
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(got.length);
    const pageIds = got
      .map((r) => (JSON.parse(r.body) as { data: { page_id: number } }).data.page_id)
      .sort((x, y) => x - y);
    expect(pageIds).toEqual(created.map((p) => p.id).sort((x, y) => x - y));
  }, 60_000);

  /**
   * A write whose owner has no enabled webhook records no event and looks
   * nothing up after itself; whether the owner has one is read from the
   * database before each write, never kept: the first write after a webhook is
   * created, enabled, disabled or deleted, through either instance, follows it.
   */
  it('a webhook made, disabled, enabled or deleted through one instance rules the next write through the other', async () => {
    const [first, second] = [await newUser(a), await newUser(b)];
    const sites = new Map([
      [first, (await newSite(a, first)).id],
      [second, (await newSite(b, second)).id],
    ]);
    const pageIdOf = (r: { body: string }) => (JSON.parse(r.body) as { data: { page_id: number } }).data.page_id;
    const heard = (path: string) => receiver.at(path).map((r) => `${JSON.parse(r.body).type} ${pageIdOf(r)}`);
    const write = async (on: TestApp, user: TestUser, name: string) => {
      const page = await createPage(on, user, { name, site_id: sites.get(user) });
      const put = await on.call('PUT', `/api/v1/pages/${page.id}`, { key: user.key, body: { name: `${name}!` } });
      expect(put.status).toBe(200);
      return page.id as number;
    };
    const hook = async (on: TestApp, user: TestUser, path: string) => {
      const made = await on.call('POST', '/api/v1/webhooks', {
        key: user.key,
        body: { url: receiver.url(path), events: ['page.created', 'page.updated'] },
      });
      expect(made.status, made.text).toBe(201);
      return made.body.id as number;
    };
    const enable = async (on: TestApp, user: TestUser, id: number, enabled: boolean) =>
      expect((await on.call('PUT', `/api/v1/webhooks/${id}`, { key: user.key, body: { enabled } })).status).toBe(200);
    // A disabled or deleted endpoint is sent nothing, not even what was recorded before (on PostgreSQL a
    // delivery waits for the queue's poll): what a write recorded is heard before the endpoint changes.
    const delivered = (path: string, ids: number[]) =>
      until(
        async () => heard(path),
        (got) => ids.every((id) => got.includes(`page.created ${id}`) && got.includes(`page.updated ${id}`)),
      );
    // Both users write through both instances before any webhook exists: nothing to record.
    for (const on of [a, b]) for (const user of [first, second]) await write(on, user, 'Quiet');

    // Made through b, heard for the very next write through a; the other user's writes stay unheard.
    const firstHook = await hook(b, first, '/several-first');
    const heardFirst = [await write(a, first, 'First 1'), await write(b, first, 'First 2')];
    await write(a, second, 'Second, no hook');
    await delivered('/several-first', heardFirst);
    // Disabled through a: the next write through b records nothing for it.
    await enable(a, first, firstHook, false);
    await write(b, first, 'First, disabled');
    // Enabled again through b, heard through a at once; the second user's hook, made through a, heard through b.
    await enable(b, first, firstHook, true);
    heardFirst.push(await write(a, first, 'First 3'));
    await hook(a, second, '/several-second');
    const heardSecond = [await write(b, second, 'Second 1')];
    await delivered('/several-first', heardFirst);
    // Deleted through a: the next write through b records nothing.
    expect((await a.call('DELETE', `/api/v1/webhooks/${firstHook}`, { key: first.key })).status).toBe(204);
    await write(b, first, 'First, deleted');

    const expected = (ids: number[]) => ids.flatMap((id) => [`page.created ${id}`, `page.updated ${id}`]).sort();
    await until(
      async () => receiver.at('/several-first').length + receiver.at('/several-second').length,
      (n) => n >= 2 * (heardFirst.length + heardSecond.length),
    );
    // Time for a delivery that should not be, were there one.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(heard('/several-first').sort()).toEqual(expected(heardFirst));
    expect(heard('/several-second').sort()).toEqual(expected(heardSecond));
  }, 60_000);
});
