import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_THROTTLE } from '../../src/modules/auth/auth-throttle.js';
import { startApp, storageOf, type TestApp } from '../support/app.js';
import { newUser } from '../support/factories.js';

/*
 * Password spraying: one address tries one password over many accounts
 * (unknown e-mails, mostly), about 47 attempts a second in the review. Each
 * attempt costs a password check (scrypt, ~50 ms of a thread), so other
 * users' logins queued behind them: p50 52 ms -> 979 ms. The client's address
 * is set through X-Forwarded-For: 127.0.0.1, the test client, is the trusted
 * proxy.
 */
const { loginAttemptsPerAddress } = DEFAULT_THROTTLE; // the service's own limit, not the tests' lifted one
let t: TestApp;
beforeAll(async () => {
  t = await startApp({ env: { TRUST_PROXY: '127.0.0.1' }, overrides: { throttle: { loginAttemptsPerAddress } } });
});
afterAll(() => t.close());

const loginAt = (app: TestApp, email: string, password: string, from: string) =>
  app.call('POST', '/api/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': from } });
const login = (email: string, password: string, from: string) => loginAt(t, email, password, from);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timedLogins(users: { email: string }[], rounds: number, from: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const user = users[i % users.length]!;
    const started = performance.now();
    const answer = await login(user.email, 'a-users-own-password', from);
    times.push(performance.now() - started);
    expect(answer.status).toBe(200);
  }
  return times;
}

describe('a login flood from one address over many accounts', () => {
  it("is slowed (429 with Retry-After), and other users' logins elsewhere stay fast", async () => {
    const users = [];
    for (let i = 0; i < 3; i++) users.push(await newUser(t, { password: 'a-users-own-password' }));
    await timedLogins(users, 3, '203.0.113.7'); // warm
    const quiet = median(await timedLogins(users, 15, '203.0.113.7'));

    // The sprayer: an attempt every 20 ms (50/s), each on a new unknown e-mail, at most 16 in flight.
    const statuses = new Map<number, number>();
    let retryAfter = 0;
    let inFlight = 0;
    let sent = 0;
    const attempts: Promise<void>[] = [];
    const sprayer = setInterval(() => {
      if (inFlight >= 16) return;
      inFlight++;
      const attempt = login(`sprayed-${sent++}@example.test`, 'Summer2026!', '192.0.2.66').then((answer) => {
        inFlight--;
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status === 429) retryAfter = Number(answer.headers.get('retry-after'));
      });
      attempts.push(attempt);
    }, 20);
    let flooded: number;
    try {
      // The minute's first attempts (the limit's 30) are checked, as any login is: timing starts once they
      // are answered, so what is measured is the flood that the limit refuses.
      while ((statuses.get(401) ?? 0) < loginAttemptsPerAddress) await new Promise((r) => setTimeout(r, 50));
      flooded = median(await timedLogins(users, 9, '203.0.113.8'));
    } finally {
      clearInterval(sprayer);
      await Promise.all(attempts);
    }
    console.log(
      `login p50 quiet ${quiet.toFixed(0)} ms, under the flood ${flooded.toFixed(0)} ms; sprayer's answers ${JSON.stringify(Object.fromEntries(statuses))} of ${sent}`,
    );
    expect(statuses.get(429)).toBeGreaterThan(0);
    expect(retryAfter).toBeGreaterThan(0);
    // Before the limit: 147 ms -> 2,937 ms (load 16). The flood's 429s still cost a little (two database
    // round trips each, 50 a second, and this process is also the flooding client).
    expect(flooded).toBeLessThan(Math.max(3 * quiet, quiet + 100));
  }, 120_000);
});

describe('the soft limit per address on logins over every account', () => {
  const OWN = 'a-users-own-password';
  const limited = (limit: number, storage?: ReturnType<typeof storageOf>) =>
    startApp({
      env: { TRUST_PROXY: '127.0.0.1' },
      overrides: { throttle: { loginAttemptsPerAddress: limit } },
      ...(storage && { storage }),
    });

  it('answers 429 with Retry-After past the limit, even with a right password there; the owner elsewhere signs in', async () => {
    const app = await limited(5);
    try {
      const owner = await newUser(app, { password: OWN });
      for (let i = 0; i < 5; i++) {
        expect((await loginAt(app, `nobody-${i}@example.test`, 'guess-guess', '192.0.2.10')).status).toBe(401);
      }
      const slowed = await loginAt(app, owner.email, OWN, '192.0.2.10');
      expect(slowed.status).toBe(429);
      expect(slowed.body.error).toMatch(/^Too many failed logins from this address\. Try again in \d+ seconds\.$/);
      const wait = Number(slowed.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(DEFAULT_THROTTLE.loginAddressWindowSeconds);
      expect((await loginAt(app, owner.email, OWN, '192.0.2.11')).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('counts only attempts that fail: signing in often from one address is never slowed', async () => {
    const app = await limited(3);
    try {
      const user = await newUser(app, { password: OWN });
      for (let i = 0; i < 6; i++) expect((await loginAt(app, user.email, OWN, '192.0.2.20')).status).toBe(200);
      for (let i = 0; i < 3; i++) {
        expect((await loginAt(app, `nobody-${i}@example.test`, 'guess-guess', '192.0.2.20')).status).toBe(401);
      }
      expect((await loginAt(app, user.email, OWN, '192.0.2.20')).status).toBe(429);
    } finally {
      await app.close();
    }
  });

  it('counts an IPv6 client by its /64', async () => {
    const app = await limited(3);
    try {
      for (let i = 1; i <= 3; i++) {
        expect((await loginAt(app, `n-${i}@example.test`, 'guess-guess', `2001:db8:1:2::${i}`)).status).toBe(401);
      }
      expect((await loginAt(app, 'n-4@example.test', 'guess-guess', '2001:db8:1:2:ffff::9')).status).toBe(429);
      expect((await loginAt(app, 'n-5@example.test', 'guess-guess', '2001:db8:1:3::1')).status).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('is shared by instances on one database', async () => {
    const first = await limited(3);
    const second = await limited(3, storageOf(first));
    try {
      for (let i = 0; i < 3; i++) {
        expect((await loginAt(first, `n-${i}@example.test`, 'guess-guess', '192.0.2.30')).status).toBe(401);
      }
      expect((await loginAt(second, 'n-9@example.test', 'guess-guess', '192.0.2.30')).status).toBe(429);
    } finally {
      await second.stop();
      await first.close();
    }
  });
});
