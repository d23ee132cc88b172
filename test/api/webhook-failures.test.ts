/**
 * Webhook deliveries that fail, against real receivers on loopback, on the
 * configured database: a receiver that is down or too slow is tried again and
 * then given up, a 429 is tried again, a redirect is not followed nor tried
 * again, an endpoint is disabled after WEBHOOK_DISABLE_AFTER failed deliveries
 * (and enabled again by its owner), and the outbound guard refuses internal
 * addresses when the endpoint is saved and again at each delivery (a DNS
 * answer that changed since: rebinding).
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { startReceiver, until, type Receiver } from '../support/webhook-receiver.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());

/** A loopback port where nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const fixture = (t: () => TestApp, user: () => TestUser) => ({
  subscribe: async (url: string) => {
    const r = await t().call('POST', '/api/v1/webhooks', { key: user().key, body: { url, events: ['page.created'] } });
    expect(r.status, r.text).toBe(201);
    return r.body as { id: number };
  },
  hook: async (id: number) => (await t().call('GET', `/api/v1/webhooks/${id}`, { key: user().key })).body,
  deliveries: async (id: number) =>
    (await t().call('GET', `/api/v1/webhooks/${id}/deliveries`, { key: user().key })).body.data as any[],
  test: (id: number) => t().call('POST', `/api/v1/webhooks/${id}/test`, { key: user().key }),
});

describe('a failing receiver', { timeout: 60_000 }, () => {
  let t: TestApp;
  let user: TestUser;
  let siteId: number;
  const f = fixture(
    () => t,
    () => user,
  );
  beforeAll(async () => {
    t = await startApp({
      env: {
        JOB_RETRY_LIMIT: '1',
        // Two seconds between tries: room to see a delivery pending.
        JOB_RETRY_DELAY_SECONDS: '2',
        JOB_POLL_SECONDS: '0.5',
        WEBHOOK_DISABLE_AFTER: '2',
        WEBHOOK_TIMEOUT_SECONDS: '1',
      },
    });
    user = await newUser(t);
    siteId = (await newSite(t, user)).id;
  });
  afterAll(() => t?.close());
  const newPage = (name: string) => t.call('POST', '/api/v1/pages', { key: user.key, body: { name, site_id: siteId } });
  const settled = (id: number, count = 1) =>
    until(
      () => f.deliveries(id),
      (d) => d.length >= count && d.every((x) => x.state !== 'pending'),
    );

  it('down: tried again, given up, and after two such deliveries the endpoint is disabled until enabled', async () => {
    const hook = await f.subscribe(`http://127.0.0.1:${await closedPort()}/hook`);
    await newPage('One');
    // Pending between its tries: a redelivery now would send it twice.
    const [pending] = await until(
      () => f.deliveries(hook.id),
      (d) => d[0]?.state === 'pending' && d[0].attempts === 1,
    );
    const early = await t.call('POST', `/api/v1/webhooks/${hook.id}/deliveries/${pending.id}/redeliver`, {
      key: user.key,
    });
    expect(early.status).toBe(409);
    const [first] = await settled(hook.id);
    expect(first).toMatchObject({ state: 'failed', attempts: 2, response_status: null });
    expect(first.last_error).toBe('The receiver could not be reached (ECONNREFUSED).');
    expect(await f.hook(hook.id)).toMatchObject({ enabled: true, consecutive_failures: 1 });
    await newPage('Two');
    await settled(hook.id, 2);
    const disabled = await f.hook(hook.id);
    expect(disabled).toMatchObject({ enabled: false, consecutive_failures: 2 });
    expect(disabled.disabled_reason).toBe(
      '2 deliveries in a row failed; the last: The receiver could not be reached (ECONNREFUSED).',
    );
    // Disabled: a change records nothing for it.
    await newPage('Three');
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(await f.deliveries(hook.id)).toHaveLength(2);
    const enabled = await t.call('PUT', `/api/v1/webhooks/${hook.id}`, { key: user.key, body: { enabled: true } });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ enabled: true, consecutive_failures: 0, disabled_reason: null });
    await newPage('Four');
    expect(await settled(hook.id, 3)).toHaveLength(3);
  });

  it('too slow: cut at WEBHOOK_TIMEOUT_SECONDS and tried again; a 429 is tried again too', async () => {
    const slow = await f.subscribe(receiver.url('/slow'));
    receiver.answer('/slow', 'hang', 429);
    await newPage('Slow');
    const [delivery] = await until(
      () => f.deliveries(slow.id),
      (d) => d[0]?.attempts === 2,
    );
    expect(delivery.attempt_log[0]).toMatchObject({ response_status: null, error: 'No answer within 1000 ms.' });
    expect(delivery.attempt_log[0].duration_ms).toBeGreaterThanOrEqual(900);
    expect(delivery.attempt_log[0].duration_ms).toBeLessThan(5000);
    expect(delivery.attempt_log[1]).toMatchObject({ response_status: 429 });
    expect(delivery.state).toBe('failed');
    const again = await f.subscribe(receiver.url('/busy'));
    receiver.answer('/busy', 429);
    await newPage('Busy');
    const [done] = await settled(again.id);
    expect(done).toMatchObject({ state: 'delivered', attempts: 2 });
  });

  it('a redirect is neither followed nor tried again', async () => {
    const hook = await f.subscribe(receiver.url('/moved'));
    receiver.answer('/moved', 302);
    await newPage('Moved');
    const [delivery] = await settled(hook.id);
    expect(delivery).toMatchObject({ state: 'failed', attempts: 1, response_status: 302 });
    expect(delivery.last_error).toBe('The receiver answered 302 (a redirect is not followed).');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.at('/moved')).toHaveLength(1);
  });
});

describe('the outbound guard', { timeout: 60_000 }, () => {
  let t: TestApp;
  let user: TestUser;
  const dns = new Map<string, string[]>([
    ['rebind.test', ['93.184.216.34']],
    ['inside.test', ['10.1.2.3']],
  ]);
  const f = fixture(
    () => t,
    () => user,
  );
  beforeAll(async () => {
    t = await startApp({
      env: { PROVIDER_ALLOW_PRIVATE: '0', JOB_RETRY_LIMIT: '2', JOB_RETRY_DELAY_SECONDS: '1', JOB_POLL_SECONDS: '0.5' },
      overrides: {
        lookup: async (host) => {
          const addresses = dns.get(host);
          if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
          return addresses;
        },
      },
    });
    user = await newUser(t);
  });
  afterAll(() => t?.close());

  it('refuses internal and unresolvable addresses at url when saved', async () => {
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://169.254.169.254/latest',
      'http://[::ffff:10.0.0.1]/x',
      'http://inside.test/x',
      'http://nowhere.test/x',
    ]) {
      const r = await t.call('POST', '/api/v1/webhooks', { key: user.key, body: { url, events: ['page.created'] } });
      expect(r.status, url).toBe(400);
      expect(r.body.errors, url).toEqual([expect.objectContaining({ path: 'url' })]);
      expect(r.body.errors[0].message).not.toContain('base_url');
    }
    const hook = await f.subscribe('http://rebind.test/x');
    const moved = await t.call('PUT', `/api/v1/webhooks/${hook.id}`, {
      key: user.key,
      body: { url: 'http://inside.test/y' },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.errors[0].path).toBe('url');
  });

  it('checks the address again at delivery: a name that now points inside is not called, nor tried again', async () => {
    dns.set('rebind.test', ['93.184.216.34']);
    const hook = await f.subscribe(`http://rebind.test:${receiver.port}/rebound`);
    dns.set('rebind.test', ['127.0.0.1']);
    expect((await f.test(hook.id)).status).toBe(202);
    const [delivery] = await until(
      () => f.deliveries(hook.id),
      (d) => d[0]?.state === 'failed',
    );
    expect(delivery).toMatchObject({ attempts: 1, response_status: null });
    expect(delivery.last_error).toBe('Not sent: the address is internal (the outbound guard refused it).');
    expect(receiver.at('/rebound')).toEqual([]);
  });
});
