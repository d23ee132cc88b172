import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newUser, type TestUser } from '../support/factories.js';

const ORIGIN = 'https://app.example';
const preflight = (t: TestApp, origin: string) =>
  t.call('OPTIONS', '/api/v1/sites', {
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
  });

describe('CORS on /api/v1 with CORS_ORIGINS', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await startApp({ env: { CORS_ORIGINS: `${ORIGIN}, https://other.example` } });
    user = await newUser(t);
  });
  afterAll(() => t.close());

  it('answers a preflight from a listed origin', async () => {
    const r = await preflight(t, ORIGIN);
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(r.headers.get('access-control-allow-methods')).toContain('POST');
    expect(r.headers.get('access-control-allow-headers')).toContain('authorization');
    // A browser client may write under a condition (If-Match) and read the version it gets (ETag).
    expect(r.headers.get('access-control-allow-headers')).toContain('if-match');
  });

  it('lets a listed origin read an answer, and its request id', async () => {
    const r = await t.call('GET', '/api/v1/sites', { key: user.key, headers: { origin: ORIGIN } });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(r.headers.get('access-control-expose-headers')).toContain('x-request-id');
    expect(r.headers.get('access-control-expose-headers')).toContain('etag');
  });

  it('gives an unlisted origin no permission', async () => {
    const r = await preflight(t, 'https://evil.example');
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    const read = await t.call('GET', '/api/v1/sites', { key: user.key, headers: { origin: 'https://evil.example' } });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS off by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('sends no CORS header, and a preflight is not allowed', async () => {
    const r = await preflight(t, ORIGIN);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    expect(r.status).toBe(405);
  });
});
