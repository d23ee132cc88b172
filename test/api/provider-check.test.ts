import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';

// Generous: under a loaded machine the fake provider can take over a second to answer.
const PROVIDER_TIMEOUT_MS = 4_000;
let t: TestApp;
let fake: FakeFourcms;
let user: TestUser;

beforeAll(async () => {
  fake = await startFakeFourcms({ token: 'check-token-123' });
  t = await startApp({ overrides: { providerTimeoutMs: PROVIDER_TIMEOUT_MS } });
  user = await newUser(t);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const save = (siteId: number, body: { base_url: string; token: string }, who = user) =>
  t.call('PUT', `/api/v1/sites/${siteId}/provider/fourcms`, { key: who.key, body });
const check = (siteId: number, who = user) =>
  t.call('POST', `/api/v1/sites/${siteId}/provider/check`, { key: who.key });
const meCalls = () => fake.requests.filter((r) => r.method === 'GET' && r.path === '/me');

/** An address where nothing listens: a port that was just free. */
async function deadAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('saving a provider checks it, and never refuses it', () => {
  it('says ok when the provider accepts the token, having asked it with that token', async () => {
    const site = await newSite(t, user);
    const before = meCalls().length;
    const r = await save(site.id, { base_url: fake.url, token: fake.token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      type: 'fourcms',
      base_url: fake.url,
      token_set: true,
      updated_at: expect.any(String),
      check: { ok: true },
    });
    expect(meCalls().slice(before)).toEqual([
      expect.objectContaining({ authorization: `Bearer ${fake.token}`, body: undefined }),
    ]);
  });

  it('stores a refused token, and says the provider refused it, without the token', async () => {
    const site = await newSite(t, user);
    const r = await save(site.id, { base_url: fake.url, token: 'wrong-token-456' });
    expect(r.status).toBe(200);
    expect(r.body.check).toEqual({ ok: false, error: 'fourcms answered 401 Unauthorized: invalid token' });
    expect(r.text).not.toContain('wrong-token-456');
    const stored = await t.call('GET', `/api/v1/sites/${site.id}/provider`, { key: user.key });
    expect(stored.body).toMatchObject({ base_url: fake.url, token_set: true });
  });

  it('stores an address where nothing listens, and says so', async () => {
    const site = await newSite(t, user);
    const r = await save(site.id, { base_url: await deadAddress(), token: 'x' });
    expect(r.status).toBe(200);
    expect(r.body.check).toEqual({ ok: false, error: 'fourcms is unreachable: connection refused' });
  });
});

describe('POST /sites/{id}/provider/check', () => {
  it('checks the stored settings, as often as asked, and tells each failure', async () => {
    const site = await newSite(t, user);
    const none = await check(site.id);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({
      ok: false,
      error: `Site ${site.id} has no CMS provider: set one with PUT /sites/${site.id}/provider/fourcms.`,
    });

    await save(site.id, { base_url: fake.url, token: fake.token });
    expect((await check(site.id)).body).toEqual({ ok: true });

    fake.failNext('500');
    expect((await check(site.id)).body).toEqual({
      ok: false,
      error: 'fourcms answered 500 Internal Server Error: fake provider failure',
    });
    fake.failNext('malformed');
    expect((await check(site.id)).body).toEqual({
      ok: false,
      error: 'fourcms answered 200 with a body that is not valid JSON',
    });
    // The provider is back: the check says so, nothing was stored by the failures.
    expect((await check(site.id)).body).toEqual({ ok: true });
  });

  it('answers the same on the cookie contour, and 403 for another user’s site', async () => {
    const site = await newSite(t, user);
    await save(site.id, { base_url: fake.url, token: fake.token });
    const viaCookie = await t.call('POST', `/api/sites/${site.id}/provider/check`, {
      cookie: user.cookie,
      headers: { origin: t.url },
    });
    expect(viaCookie.status, viaCookie.text).toBe(200);
    expect(viaCookie.body).toEqual({ ok: true });

    const stranger = await newUser(t);
    const before = meCalls().length;
    const foreign = await check(site.id, stranger);
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toEqual(expect.any(String));
    // A stranger's check never reaches the owner's provider.
    expect(meCalls().length).toBe(before);
  });
});
