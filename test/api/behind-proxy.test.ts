import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config.js';
import { startApp, type TestApp } from '../support/app.js';
import { newUser } from '../support/factories.js';
import { callFrom, startTestProxy } from '../support/test-proxy.js';

/*
 * The review's replay behind a reverse proxy: a real proxy on loopback that
 * appends its client's address to X-Forwarded-For (as nginx does), and
 * clients that forge the header. The proxy connects from 127.0.0.2; the
 * attacker's own socket is 127.0.0.5, which no header can change.
 */
const PROXY_FROM = '127.0.0.2';
const ATTACKER = '127.0.0.5';

it('TRUST_PROXY=true (believe anyone) is refused at start, saying why and what to set instead', async () => {
  const start = startApp({ env: { TRUST_PROXY: 'true' } });
  await expect(start).rejects.toBeInstanceOf(ConfigError);
  await expect(start).rejects.toThrow(/any client, who could then choose its own address.*1 for one nginx/);
});

describe.each([
  ['the proxy by address', PROXY_FROM],
  ['the proxy by range', '127.0.0.2/31'],
  ['a hop count', '1'],
])('TRUST_PROXY naming %s (%s)', (_name, setting) => {
  let t: TestApp;
  let proxy: Awaited<ReturnType<typeof startTestProxy>>;
  beforeAll(async () => {
    t = await startApp({
      env: { TRUST_PROXY: setting, METRICS: '1' },
      overrides: { throttle: { registrationsPerAddress: 10 } },
    });
    proxy = await startTestProxy(t.url, { from: PROXY_FROM });
  });
  afterAll(async () => {
    await proxy.close();
    await t.close();
  });

  const forged = (i: number) => ({ 'x-forwarded-for': `198.51.100.${i}` });

  it('a forged X-Forwarded-For does not escape the login throttle: 20 wrong passwords meet 429', async () => {
    const victim = await newUser(t, { password: 'the-right-password' });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const body = { email: victim.email, password: `wrong-${i}-password` };
      statuses.push(
        (await callFrom(proxy.url, 'POST', '/api/auth/login', { from: ATTACKER, body, headers: forged(i) })).status,
      );
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses).toContain(429);
    // The owner, elsewhere, is not slowed by it.
    const owner = await callFrom(proxy.url, 'POST', '/api/auth/login', {
      from: '127.0.0.6',
      body: { email: victim.email, password: 'the-right-password' },
    });
    expect(owner.status).toBe(200);
  });

  it('a forged X-Forwarded-For does not escape the registration limit: 10 per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const body = { email: `forger-${setting}-${i}@example.test`, password: 'a-long-password' };
      statuses.push(
        (await callFrom(proxy.url, 'POST', '/api/auth/register', { from: ATTACKER, body, headers: forged(i) })).status,
      );
    }
    expect(statuses).toEqual([...Array<number>(10).fill(201), 429, 429]);
  });

  it('/metrics through the proxy is refused without the token, even with X-Forwarded-For: 127.0.0.1', async () => {
    // From 127.0.0.1 itself: the proxy appends 127.0.0.1, so the client address is the listen address.
    const headers = { 'x-forwarded-for': '127.0.0.1' };
    const through = await callFrom(proxy.url, 'GET', '/metrics', { from: '127.0.0.1', headers });
    expect(through.status).toBe(403);
    expect(through.body.error).toMatch(/metrics token/);
    expect((await callFrom(proxy.url, 'GET', '/metrics', { from: ATTACKER, headers })).status).toBe(403);
  });
});

describe('TRUST_PROXY unset, behind a proxy on the same host', () => {
  let t: TestApp;
  let proxy: Awaited<ReturnType<typeof startTestProxy>>;
  beforeAll(async () => {
    t = await startApp({ env: { METRICS: '1' } });
    // As nginx on the service's host: it connects from the listen address.
    proxy = await startTestProxy(t.url, { from: '127.0.0.1' });
  });
  afterAll(async () => {
    await proxy.close();
    await t.close();
  });

  it('/metrics is not readable through the proxy; a local client without one still reads it', async () => {
    expect((await callFrom(proxy.url, 'GET', '/metrics', { from: ATTACKER })).status).toBe(403);
    expect((await callFrom(t.url, 'GET', '/metrics', { from: '127.0.0.1' })).status).toBe(200);
  });
});

describe('METRICS_TOKEN behind a trusted proxy', () => {
  const TOKEN = 'metrics-token-0123456789';
  let t: TestApp;
  let proxy: Awaited<ReturnType<typeof startTestProxy>>;
  beforeAll(async () => {
    t = await startApp({ env: { METRICS: '1', METRICS_TOKEN: TOKEN, TRUST_PROXY: PROXY_FROM } });
    proxy = await startTestProxy(t.url, { from: PROXY_FROM });
  });
  afterAll(async () => {
    await proxy.close();
    await t.close();
  });

  it('reads /metrics through the proxy with the token', async () => {
    const headers = { authorization: `Bearer ${TOKEN}` };
    expect((await callFrom(proxy.url, 'GET', '/metrics', { from: ATTACKER, headers })).status).toBe(200);
  });
});
