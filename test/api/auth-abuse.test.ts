import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthThrottle, DEFAULT_THROTTLE } from '../../src/modules/auth/auth-throttle.js';
import { rateLimitsRepository } from '../../src/db/repositories/rate-limits.repository.js';
import { ADMIN, startApp, storageOf, type TestApp } from '../support/app.js';
import { newUser } from '../support/factories.js';

let t: TestApp;
beforeAll(async () => {
  // 127.0.0.1, the test client, is the trusted proxy: X-Forwarded-For names the client.
  const { loginAttemptsPerAddress } = DEFAULT_THROTTLE; // the service's own, not the tests' lifted one
  t = await startApp({
    env: { TRUST_PROXY: '127.0.0.1' },
    overrides: { throttle: { freeFailures: 3, loginAttemptsPerAddress } },
  });
});
afterAll(() => t.close());

const login = (app: TestApp, email: string, password: string, from?: string) =>
  app.call('POST', '/api/auth/login', {
    body: { email, password },
    ...(from && { headers: { 'x-forwarded-for': from } }),
  });

const register = (app: TestApp, password: string, from?: string) =>
  app.call('POST', '/api/auth/register', {
    body: { email: `u-${Math.random().toString(36).slice(2)}@example.test`, password },
    ...(from && { headers: { 'x-forwarded-for': from } }),
  });

describe('login throttle (per account and address, progressive, in the database)', () => {
  it('slows down the address that fails, not the account: its owner still signs in from elsewhere', async () => {
    const victim = await newUser(t, { password: 'right-password' });
    for (let i = 0; i < 3; i++) expect((await login(t, victim.email, `bad-${i}-xxx`, '198.51.100.9')).status).toBe(401);
    const slowed = await login(t, victim.email, 'right-password', '198.51.100.9');
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(slowed.body.error).toMatch(/too many failed logins/i);
    expect((await login(t, victim.email, 'right-password', '203.0.113.20')).status).toBe(200);
  });

  it('many failures from one address over many accounts do not lock out the administrator there', async () => {
    for (let i = 0; i < 25; i++) {
      expect((await login(t, `guess-${i}@example.test`, 'nope-nope', '192.0.2.50')).status).toBe(401);
    }
    expect((await login(t, ADMIN.email, ADMIN.password, '192.0.2.50')).status).toBe(200);
  });

  it('a spoofed X-Forwarded-For does not escape the throttle when the proxy is not trusted', async () => {
    const direct = await startApp({ overrides: { throttle: { freeFailures: 2 } } });
    try {
      const user = await newUser(direct, { password: 'right-password' });
      for (let i = 0; i < 2; i++) await login(direct, user.email, 'wrong-one', `10.9.9.${i}`);
      expect((await login(direct, user.email, 'right-password', '10.9.9.200')).status).toBe(429);
    } finally {
      await direct.close();
    }
  });

  it('is shared by instances on one database: failures counted by one slow the other', async () => {
    const first = await startApp({ overrides: { throttle: { freeFailures: 2 } } });
    const second = await startApp({ storage: storageOf(first), overrides: { throttle: { freeFailures: 2 } } });
    try {
      const user = await newUser(first, { password: 'right-password' });
      for (let i = 0; i < 2; i++) expect((await login(first, user.email, 'wrong-one')).status).toBe(401);
      expect((await login(second, user.email, 'right-password')).status).toBe(429);
    } finally {
      await second.stop();
      await first.close();
    }
  });

  it('doubles the wait with each further failure, up to the maximum, and a success forgets them', async () => {
    const throttle = new AuthThrottle(rateLimitsRepository(t.app.database), {
      ...DEFAULT_THROTTLE,
      freeFailures: 2,
      maxDelaySeconds: 30,
      failureWindowSeconds: 3600,
      registrationsPerAddress: 1,
      registrationWindowSeconds: 60,
    });
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      await throttle.loginFailed('p@example.test', '192.0.2.1');
      waits.push(await throttle.loginWait('p@example.test', '192.0.2.1'));
    }
    expect(waits).toEqual([0, 1, 2, 4, 8, 16, 30, 30]);
    expect(await throttle.loginWait('p@example.test', '192.0.2.2')).toBe(0);
    await throttle.loginSucceeded('p@example.test', '192.0.2.1');
    expect(await throttle.loginWait('p@example.test', '192.0.2.1')).toBe(0);
    await throttle.loginFailed('p@example.test', '192.0.2.1');
    expect(await throttle.loginWait('p@example.test', '192.0.2.1')).toBe(0);
  });
});

describe('registration', () => {
  it.each([
    ['12345678', /^This password is a sequence\. Use at least 8 characters, and not a common password/],
    ['abcdefgh', /sequence/],
    ['87654321', /sequence/],
    ['aaaaaaaa', /^This password repeats one character or a short group\./],
    ['abababab', /repeats/],
    ['pageblocks', /^This password is mostly the name of this service\./],
    ['PageBlocks2026!', /name of this service/],
    ['Password', /common/],
    ['iloveyou', /common/],
    ['        ', /white space/],
    ['\t\t\t\t\t\t\t\t\n', /white space/],
  ])('refuses the password %j with 400 at "password" and a clear message', async (password, message) => {
    const r = await register(t, password, '198.18.0.0');
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      expect.objectContaining({ path: 'password', message: expect.stringMatching(message) }),
    ]);
  });

  it('is limited per address (429 with Retry-After); other addresses register on', async () => {
    const limited = await startApp({
      env: { TRUST_PROXY: '127.0.0.1' },
      overrides: { throttle: { registrationsPerAddress: 3 } },
    });
    try {
      for (let i = 0; i < 3; i++) expect((await register(limited, 'a-long-password', '203.0.113.5')).status).toBe(201);
      const refused = await register(limited, 'a-long-password', '203.0.113.5');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.body.error).toMatch(/too many registrations/i);
      expect((await register(limited, 'a-long-password', '203.0.113.6')).status).toBe(201);
    } finally {
      await limited.close();
    }
  });
});
