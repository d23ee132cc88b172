/**
 * Webhooks against a real receiver on loopback, on the configured database:
 * subscriptions on both contours, Standard Webhooks signatures verified with
 * the `standardwebhooks` package, a receiver's 5xx tried again and delivered
 * once, a 4xx not tried again, redelivery, the test event, and the outbox:
 * an event is stored with its change, so a dry run sends nothing.
 */
import { sql } from 'kysely';
import { Webhook as Verifier } from 'standardwebhooks';
import { jobSchema } from '../../src/db/jobs/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { startReceiver, until, type Receiver } from '../support/webhook-receiver.js';

const JOBS = { JOB_RETRY_LIMIT: '3', JOB_RETRY_DELAY_SECONDS: '1', JOB_POLL_SECONDS: '0.5' };
let t: TestApp;
let receiver: Receiver;
let user: TestUser;
let other: TestUser;
let siteId: number;

beforeAll(async () => {
  receiver = await startReceiver();
  t = await startApp({ env: JOBS });
  user = await newUser(t);
  other = await newUser(t);
  siteId = (await newSite(t, user)).id;
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const subscribe = async (path: string, events: string[] = ['page.created'], who = user) => {
  const r = await t.call('POST', '/api/v1/webhooks', { key: who.key, body: { url: receiver.url(path), events } });
  expect(r.status, r.text).toBe(201);
  return r.body as { id: number; secret: string };
};
const deliveries = async (id: number) =>
  (await t.call('GET', `/api/v1/webhooks/${id}/deliveries`, { key: user.key })).body.data as any[];
/** Delivery jobs ever stored, whatever their state: the queue's own table on either database. */
const deliveryJobs = async () => {
  const table = process.env.DATABASE_URL ? sql.table(`${jobSchema(t.config.databaseSchema)}.job`) : sql.table('jobs');
  const { rows } = await sql<{
    n: number | string;
  }>`select count(*) as n from ${table} where name = 'webhook.deliver'`.execute(t.app.database.db);
  return Number(rows[0]!.n);
};
const newPage = (name: string, query = '') =>
  t.call('POST', `/api/v1/pages${query}`, { key: user.key, body: { name, site_id: siteId } });

describe('a webhook', { timeout: 60_000 }, () => {
  it('is created with its secret shown once, and is its owner’s alone', async () => {
    const hook = await subscribe('/crud', ['page.published', 'page.deleted']);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const read = await t.call('GET', `/api/v1/webhooks/${hook.id}`, { key: user.key });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ url: receiver.url('/crud'), enabled: true, consecutive_failures: 0 });
    expect(read.text).not.toContain(hook.secret.slice(6));
    const list = await t.call('GET', '/api/webhooks', { cookie: user.cookie });
    expect(list.status).toBe(200);
    expect(list.body.data.map((h: { id: number }) => h.id)).toContain(hook.id);
    expect(list.text).not.toContain(hook.secret.slice(6));
    for (const [method, path] of [
      ['GET', ''],
      ['PUT', ''],
      ['DELETE', ''],
      ['GET', '/deliveries'],
      ['POST', '/test'],
      ['POST', '/secret'],
    ] as const) {
      const r = await t.call(method, `/api/v1/webhooks/${hook.id}${path}`, {
        key: other.key,
        ...(method === 'PUT' && { body: { enabled: false } }),
      });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    expect((await t.call('GET', '/api/v1/webhooks', { key: other.key })).body.total).toBe(0);
    const rotated = await t.call('POST', `/api/v1/webhooks/${hook.id}/secret`, { key: user.key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(hook.secret);
  });

  it('refuses a bad URL or event at its path', async () => {
    const post = (body: unknown) => t.call('POST', '/api/v1/webhooks', { key: user.key, body });
    const ftp = await post({ url: 'ftp://example.com/x', events: ['page.created'] });
    expect(ftp.status).toBe(400);
    expect(ftp.body.errors[0].path).toBe('url');
    const noEvents = await post({ url: receiver.url('/x'), events: [] });
    expect(noEvents.status).toBe(400);
    expect(noEvents.body.errors[0].path).toBe('events');
    const unknown = await post({ url: receiver.url('/x'), events: ['page.exploded'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].path).toMatch(/^events/);
    const hook = await subscribe('/x');
    const put = await t.call('PUT', `/api/v1/webhooks/${hook.id}`, { key: user.key, body: { url: 'not a url' } });
    expect(put.status).toBe(400);
    expect(put.body.errors[0].path).toBe('url');
  });

  it('delivers a signed event that the standardwebhooks package verifies', async () => {
    const hook = await subscribe('/signed');
    const page = (await newPage('Signed')).body;
    const [delivery] = await until(
      () => deliveries(hook.id),
      (d) => d[0]?.state === 'delivered',
    );
    const [got] = receiver.at('/signed');
    const verified = new Verifier(hook.secret).verify(got!.body, got!.headers as Record<string, string>) as any;
    expect(verified).toMatchObject({ type: 'page.created', data: { page_id: page.id, site_id: siteId } });
    expect(got!.headers['webhook-id']).toBe(delivery.id);
    expect(delivery).toMatchObject({ event: 'page.created', attempts: 1, response_status: 200 });
    expect(delivery.attempt_log[0]).toMatchObject({ attempt: 1, response_status: 200, response_excerpt: 'ok' });
    // Another secret does not verify it.
    const stranger = new Verifier('whsec_' + Buffer.alloc(32, 1).toString('base64'));
    expect(() => stranger.verify(got!.body, got!.headers as Record<string, string>)).toThrow();
  });

  it('tries a 5xx again and delivers once, its four attempts logged', async () => {
    const hook = await subscribe('/flaky');
    receiver.answer('/flaky', 500, 502, 503);
    await newPage('Flaky');
    const [delivery] = await until(
      () => deliveries(hook.id),
      (d) => d[0]?.state === 'delivered',
    );
    expect(delivery.attempts).toBe(4);
    expect(delivery.attempt_log.map((a: { response_status: number }) => a.response_status)).toEqual([
      500, 502, 503, 200,
    ]);
    const sent = receiver.at('/flaky');
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((r) => r.headers['webhook-id']))).toEqual(new Set([delivery.id]));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.at('/flaky')).toHaveLength(4);
  });

  it('does not try a 4xx again; redeliver sends the same message once more', async () => {
    const hook = await subscribe('/gone');
    receiver.answer('/gone', 404);
    await newPage('Gone');
    const [failed] = await until(
      () => deliveries(hook.id),
      (d) => d[0]?.state === 'failed',
    );
    expect(failed).toMatchObject({ attempts: 1, response_status: 404 });
    expect(failed.attempt_log[0].response_excerpt).toBe('failed with 404');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(receiver.at('/gone')).toHaveLength(1);
    expect((await t.call('GET', `/api/v1/webhooks/${hook.id}`, { key: user.key })).body.consecutive_failures).toBe(1);

    const stranger = await t.call('POST', `/api/v1/webhooks/${hook.id}/deliveries/${failed.id}/redeliver`, {
      key: other.key,
    });
    expect(stranger.status).toBe(404);
    const missing = await t.call('POST', `/api/v1/webhooks/${hook.id}/deliveries/msg_nothing/redeliver`, {
      key: user.key,
    });
    expect(missing.status).toBe(404);
    const again = await t.call('POST', `/api/v1/webhooks/${hook.id}/deliveries/${failed.id}/redeliver`, {
      key: user.key,
    });
    expect(again.status).toBe(202);
    const [done] = await until(
      () => deliveries(hook.id),
      (d) => d[0]?.state === 'delivered',
    );
    expect(done).toMatchObject({ id: failed.id, attempts: 2 });
    expect(receiver.at('/gone').map((r) => r.headers['webhook-id'])).toEqual([failed.id, failed.id]);
    expect((await t.call('GET', `/api/v1/webhooks/${hook.id}`, { key: user.key })).body.consecutive_failures).toBe(0);
  });

  it('sends a test event on request, on the cookie contour too', async () => {
    const hook = await subscribe('/test-event', ['page.deleted']);
    const sent = await t.call('POST', `/api/webhooks/${hook.id}/test`, { cookie: user.cookie });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ event: 'webhook.test', state: 'pending' });
    await until(
      () => deliveries(hook.id),
      (d) => d[0]?.state === 'delivered',
    );
    const [got] = receiver.at('/test-event');
    expect(JSON.parse(got!.body)).toMatchObject({ type: 'webhook.test', data: { webhook_id: hook.id } });
  });

  it('sends nothing for a change that was not stored (a dry run)', async () => {
    const hook = await subscribe('/dry');
    const jobs = await deliveryJobs();
    const dry = await newPage('Dry', '?dry_run=1');
    expect(dry.status).toBe(201);
    const refused = await t.call('POST', '/api/v1/pages', { key: user.key, body: { name: 'x', site_id: 999_999 } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await deliveries(hook.id)).toEqual([]);
    expect(receiver.at('/dry')).toEqual([]);
    // The job went with the rollback too (on PostgreSQL: pg-boss's insert ran in the dry run's transaction).
    expect(await deliveryJobs()).toBe(jobs);
    // The same call for real is delivered: the subscription works.
    await newPage('Wet');
    await until(
      () => deliveries(hook.id),
      (d) => d[0]?.state === 'delivered',
    );
    expect(receiver.at('/dry')).toHaveLength(1);
  });

  it('is deleted with its log, and hears nothing more', async () => {
    const hook = await subscribe('/deleted');
    expect((await t.call('DELETE', `/api/v1/webhooks/${hook.id}`, { key: user.key })).status).toBe(204);
    expect((await t.call('GET', `/api/v1/webhooks/${hook.id}`, { key: user.key })).status).toBe(404);
    await newPage('After');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.at('/deleted')).toEqual([]);
  });
});
