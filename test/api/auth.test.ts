import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, PUBLIC_URL, startApp, type TestApp } from '../support/app.js';
import { cookieFrom } from '../support/client.js';
import { newUser } from '../support/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

describe('register', () => {
  it('creates the account, sets an HttpOnly SameSite=Lax session cookie and never returns the password', async () => {
    const r = await t.call('POST', '/api/auth/register', {
      body: { email: 'New@Example.test', password: 'password-1' },
    });
    expect(r.status).toBe(201);
    expect(r.body.user).toMatchObject({ email: 'new@example.test', is_admin: false, is_blocked: false });
    expect(r.text).not.toContain('password-1');
    const setCookie = r.headers.getSetCookie().find((c) => c.startsWith('pb_session='))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i); // PUBLIC_URL is http here
    const me = await t.call('GET', '/api/auth/me', { cookie: cookieFrom(r.headers) });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe('new@example.test');
  });

  it('stores a scrypt hash, never the password', async () => {
    await t.call('POST', '/api/auth/register', { body: { email: 'hash@example.test', password: 'plain-secret-9' } });
    const row = await t.app.database.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'hash@example.test')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain('plain-secret-9');
  });

  it.each([
    [{ email: 'short@example.test', password: '1234567' }, 'password'],
    [{ email: 'not-an-email', password: 'password-1' }, 'email'],
    [{ password: 'password-1' }, 'email'],
    [{ email: 'x@example.test' }, 'password'],
  ])('refuses %j at %s and writes nothing', async (body, path) => {
    const before = await t.app.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const r = await t.call('POST', '/api/auth/register', { body });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    const after = await t.app.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('answers 409 for an email taken twice, whatever its case', async () => {
    await t.call('POST', '/api/auth/register', { body: { email: 'twice@example.test', password: 'password-1' } });
    const r = await t.call('POST', '/api/auth/register', {
      body: { email: 'TWICE@example.test', password: 'password-2' },
    });
    expect(r.status).toBe(409);
    expect(r.body.errors).toEqual([{ path: 'email', message: expect.any(String), code: 'conflict' }]);
  });
});

describe('login and logout', () => {
  it('answers the same 401 for an unknown email and a wrong password', async () => {
    await newUser(t, { email: 'login@example.test', password: 'right-password' });
    const unknown = await t.call('POST', '/api/auth/login', {
      body: { email: 'nobody@example.test', password: 'whatever-1' },
    });
    const wrong = await t.call('POST', '/api/auth/login', {
      body: { email: 'login@example.test', password: 'wrong-password' },
    });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual({ error: 'Invalid email or password.' });
    expect(wrong.body).toEqual(unknown.body);
    const ok = await t.call('POST', '/api/auth/login', {
      body: { email: 'login@example.test', password: 'right-password' },
    });
    expect(ok.status).toBe(200);
  });

  it('ends the session on the server at logout', async () => {
    const user = await newUser(t);
    expect((await t.call('GET', '/api/auth/me', { cookie: user.cookie })).status).toBe(200);
    expect((await t.call('POST', '/api/auth/logout', { cookie: user.cookie })).status).toBe(204);
    // The old cookie, replayed, no longer opens anything.
    const me = await t.call('GET', '/api/auth/me', { cookie: user.cookie });
    expect(me.status).toBe(401);
    expect(me.body.error).toMatch(/sign-in required/i);
  });
});

describe('the session contour', () => {
  it('refuses a state-changing request with a cookie from another origin', async () => {
    const user = await newUser(t);
    const cross = await t.call('POST', '/api/sites', {
      cookie: user.cookie,
      body: { name: 'x' },
      headers: { origin: 'https://evil.test' },
    });
    expect(cross.status).toBe(403);
    expect(cross.body.error).toMatch(/cross-origin/i);
    const same = await t.call('POST', '/api/sites', {
      cookie: user.cookie,
      body: { name: 'x' },
      headers: { origin: PUBLIC_URL },
    });
    expect(same.status).toBe(201);
    const sites = await t.call('GET', '/api/sites', { cookie: user.cookie });
    expect(sites.body.total).toBe(1);
  });

  it('does not take an API key for a session', async () => {
    const user = await newUser(t);
    const r = await t.call('GET', '/api/api-keys', { key: user.key });
    expect(r.status).toBe(401);
    expect(r.body.error).toMatch(/not accepted/i);
  });

  it('creates the first administrator from ADMIN_EMAIL and keeps it on restart', async () => {
    const login = await t.call('POST', '/api/auth/login', { body: ADMIN });
    expect(login.status).toBe(200);
    expect(login.body.user.is_admin).toBe(true);
    const admins = await t.app.database.db.selectFrom('users').select('id').where('email', '=', ADMIN.email).execute();
    expect(admins).toHaveLength(1);
  });

  it('keeps administration to administrators', async () => {
    const user = await newUser(t);
    const r = await t.call('PUT', `/api/admin/users/${user.id}`, { cookie: user.cookie, body: { is_admin: true } });
    expect(r.status).toBe(403);
    const me = await t.call('GET', '/api/auth/me', { cookie: user.cookie });
    expect(me.body.user.is_admin).toBe(false);
  });
});

describe('closed registration', () => {
  it('refuses to register with 403 and creates nothing', async () => {
    const closed = await startApp({ env: { REGISTRATION: 'closed' } });
    try {
      const r = await closed.call('POST', '/api/auth/register', {
        body: { email: 'late@example.test', password: 'password-1' },
      });
      expect(r.status).toBe(403);
      expect(r.body.error).toMatch(/closed/i);
      const row = await closed.app.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'late@example.test')
        .executeTakeFirst();
      expect(row).toBeUndefined();
      expect((await closed.call('POST', '/api/auth/login', { body: ADMIN })).status).toBe(200);
    } finally {
      await closed.close();
    }
  });
});
