/**
 * Scheduled publication (POST/DELETE /pages/{id}/schedule) against a real fake
 * provider, on the configured database: checked now as publish would be, run
 * once at its time, a publish-update for a published page, a provider's 5xx
 * tried again and a 4xx not, cancelled, and run when the service starts again
 * after being down at its time. Delays are a second or two (JOB_*), not minutes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { startApp, storageOf, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

const JOBS = { JOB_RETRY_LIMIT: '2', JOB_RETRY_DELAY_SECONDS: '1', JOB_POLL_SECONDS: '0.5' };
let t: TestApp;
let fake: FakeFourcms;
let user: TestUser;
let other: TestUser;
let siteId: number;
let block: { id: number };

beforeAll(async () => {
  fake = await startFakeFourcms({ token: 'fake-token-123' });
  t = await startApp({ env: JOBS, overrides: { providerTimeoutMs: 4_000 } });
  user = await newUser(t);
  other = await newUser(t);
  siteId = (await newSite(t, user)).id;
  block = await createBlock(t, user, { name: 'Plain', template: '<p>{{ title }}</p>' });
  const configured = await t.call('PUT', `/api/v1/sites/${siteId}/provider/fourcms`, {
    key: user.key,
    body: { base_url: fake.url, token: fake.token },
  });
  expect(configured.status).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const newPage = (kind = 'article') =>
  createPage(t, user, {
    name: 'Launch',
    kind,
    site_id: siteId,
    blocks: [{ block_id: block.id, placeholder_values: { title: 'x' } }],
  });
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const schedule = (pageId: number, body: Record<string, unknown>, who = user) =>
  t.call('POST', `/api/v1/pages/${pageId}/schedule`, { key: who.key, body });
const status = async (pageId: number) =>
  (await t.call('GET', `/api/v1/pages/${pageId}/publication`, { key: user.key })).body;
const calls = (method: string) =>
  fake.requests.filter((r) => r.method === method && r.path.startsWith('/documents')).length;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`waited too long: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a scheduled publication', () => {
  it('is refused now as publish would refuse it, each mistake at its place', async () => {
    const page = await newPage();
    const past = await schedule(page.id, { publish_at: '2020-01-01T00:00:00Z', rubric_ids: [1] });
    expect(past.status).toBe(400);
    expect(past.body.errors[0]).toMatchObject({ path: 'publish_at', code: 'too_small' });
    const malformed = await schedule(page.id, { publish_at: 'next monday', rubric_ids: [1] });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].path).toBe('publish_at');
    const noRubric = await schedule(page.id, { publish_at: inSeconds(60) });
    expect(noRubric.status).toBe(400);
    expect(noRubric.body.errors[0].path).toBe('rubric_ids');
    expect((await schedule(page.id, { publish_at: inSeconds(60), rubric_ids: [1] }, other)).status).toBe(404);
    expect(await status(page.id)).toMatchObject({ scheduled_at: null, last_scheduled_run: null });
  });

  it('publishes once at its time, and shows when, then how it went', async () => {
    const page = await newPage();
    const before = calls('POST');
    const at = inSeconds(1.5);
    const answer = await schedule(page.id, { publish_at: at, rubric_ids: [7] });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ is_published: false, scheduled_at: at, last_scheduled_run: null });
    expect(calls('POST')).toBe(before);
    const done = await until(
      () => status(page.id),
      (s) => s.last_scheduled_run !== null,
    );
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(at));
    expect(done).toMatchObject({
      is_published: true,
      scheduled_at: null,
      last_scheduled_run: { outcome: 'published', attempts: 1, error: null },
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(calls('POST')).toBe(before + 1);
  });

  it('of a published page sends a publish-update', async () => {
    const page = await newPage();
    expect(
      (await t.call('POST', `/api/v1/pages/${page.id}/publish`, { key: user.key, body: { rubric_ids: [1] } })).status,
    ).toBe(200);
    const updates = calls('PUT');
    expect((await schedule(page.id, { publish_at: inSeconds(1), meta_title: 'Now live' })).status).toBe(200);
    const done = await until(
      () => status(page.id),
      (s) => s.last_scheduled_run !== null,
    );
    expect(done.last_scheduled_run).toMatchObject({ outcome: 'published', attempts: 1 });
    expect(calls('PUT')).toBe(updates + 1);
  });

  it('is cancelled: nothing is sent at its time, and a second cancel is 409', async () => {
    const page = await newPage();
    const before = calls('POST');
    expect((await schedule(page.id, { publish_at: inSeconds(1), rubric_ids: [1] })).status).toBe(200);
    expect((await t.call('DELETE', `/api/v1/pages/${page.id}/schedule`, { key: other.key })).status).toBe(404);
    expect((await t.call('DELETE', `/api/v1/pages/${page.id}/schedule`, { key: user.key })).status).toBe(204);
    expect(await status(page.id)).toMatchObject({ scheduled_at: null });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(calls('POST')).toBe(before);
    expect(await status(page.id)).toMatchObject({ is_published: false, last_scheduled_run: null });
    const again = await t.call('DELETE', `/api/v1/pages/${page.id}/schedule`, { key: user.key });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(`Page ${page.id} has no scheduled publication to cancel.`);
  });

  it('replaced by a new one runs only the new one', async () => {
    const page = await newPage();
    const before = calls('POST');
    expect((await schedule(page.id, { publish_at: inSeconds(1), rubric_ids: [1], name: 'first' })).status).toBe(200);
    expect((await schedule(page.id, { publish_at: inSeconds(2), rubric_ids: [1], name: 'second' })).status).toBe(200);
    await until(
      () => status(page.id),
      (s) => s.last_scheduled_run !== null,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const sent = fake.requests.filter((r) => r.method === 'POST' && r.path === '/documents').slice(before);
    expect(sent.map((r) => (r.body as { title: string }).title)).toEqual(['second']);
  });

  it('tries a provider’s 5xx again with backoff, then publishes', async () => {
    const page = await newPage();
    fake.failNext('500');
    fake.failNext('500');
    expect((await schedule(page.id, { publish_at: inSeconds(0.5), rubric_ids: [1] })).status).toBe(200);
    const done = await until(
      () => status(page.id),
      (s) => s.last_scheduled_run !== null,
      45_000,
    );
    expect(done).toMatchObject({ is_published: true, last_scheduled_run: { outcome: 'published', attempts: 3 } });
  }, 60_000);

  it('fails at once on a provider’s refusal (4xx), with its message, never tried again', async () => {
    const page = await newPage();
    fake.failNext('401');
    expect((await schedule(page.id, { publish_at: inSeconds(0.5), rubric_ids: [1] })).status).toBe(200);
    const done = await until(
      () => status(page.id),
      (s) => s.last_scheduled_run !== null,
    );
    expect(done).toMatchObject({ is_published: false, last_scheduled_run: { outcome: 'failed', attempts: 1 } });
    expect(done.last_scheduled_run.error).toContain('401');
    expect(done.last_scheduled_run.error).not.toContain(fake.token);
  });

  it('fails after its last try when the provider stays down, with the tries and the message', async () => {
    const page = await newPage();
    for (let i = 0; i < 3; i++) fake.failNext('500');
    expect((await schedule(page.id, { publish_at: inSeconds(0.5), rubric_ids: [1] })).status).toBe(200);
    const done = await until(
      () => status(page.id),
      (s) => s.last_scheduled_run !== null,
      45_000,
    );
    expect(done).toMatchObject({ is_published: false, last_scheduled_run: { outcome: 'failed', attempts: 3 } });
    expect(done.last_scheduled_run.error).toContain('fake provider failure');
  }, 60_000);

  it('due while the service is down runs once when it starts again', async () => {
    const page = await newPage();
    const before = calls('POST');
    expect((await schedule(page.id, { publish_at: inSeconds(1), rubric_ids: [1] })).status).toBe(200);
    const storage = storageOf(t);
    await t.stop();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(calls('POST')).toBe(before);
    t = await startApp({ env: JOBS, storage, overrides: { providerTimeoutMs: 4_000 } });
    const done = await until(
      () => status(page.id),
      (s) => s.last_scheduled_run !== null,
    );
    expect(done).toMatchObject({ is_published: true, last_scheduled_run: { outcome: 'published' } });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(calls('POST')).toBe(before + 1);
  }, 60_000);
});
