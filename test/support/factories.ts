import { randomBytes } from 'node:crypto';
import { ADMIN, startApp, type TestApp } from './app.js';
import { cookieFrom } from './client.js';

export interface TestUser {
  id: number;
  email: string;
  cookie: string;
  key: string;
}

const uniqueEmail = () => `user-${randomBytes(4).toString('hex')}@example.test`;

/** Registers an account, signs in and makes one API key. */
export async function newUser(t: TestApp, overrides: { email?: string; password?: string } = {}): Promise<TestUser> {
  const email = overrides.email ?? uniqueEmail();
  const registered = await t.call('POST', '/api/auth/register', {
    body: { email, password: overrides.password ?? 'password-123' },
  });
  if (registered.status !== 201) throw new Error(`register failed: ${registered.status} ${registered.text}`);
  const cookie = cookieFrom(registered.headers);
  const key = await newKey(t, cookie);
  return { id: registered.body.user.id, email, cookie, key };
}

export async function newKey(t: TestApp, cookie: string, title = 'test key'): Promise<string> {
  const created = await t.call('POST', '/api/api-keys', { cookie, body: { title } });
  if (created.status !== 201) throw new Error(`key creation failed: ${created.status} ${created.text}`);
  return created.body.key;
}

/** The administrator made from ADMIN_EMAIL/ADMIN_PASSWORD, signed in, with a key. */
export async function admin(t: TestApp): Promise<TestUser> {
  const login = await t.call('POST', '/api/auth/login', { body: ADMIN });
  if (login.status !== 200) throw new Error(`admin login failed: ${login.status} ${login.text}`);
  const cookie = cookieFrom(login.headers);
  return { id: login.body.user.id, email: ADMIN.email, cookie, key: await newKey(t, cookie, 'admin key') };
}

export async function newSite(t: TestApp, user: TestUser, name = 'Main site'): Promise<{ id: number; name: string }> {
  const created = await t.call('POST', '/api/sites', { cookie: user.cookie, body: { name, domain: 'example.test' } });
  if (created.status !== 201) throw new Error(`site creation failed: ${created.status} ${created.text}`);
  return created.body;
}

/**
 * A service of its own with two users, the first holding a site: where the
 * block-upgrade tests start (the second user's calls are the refused ones).
 */
export async function startWithTwoUsers() {
  const t = await startApp();
  const [user, other] = [await newUser(t), await newUser(t)];
  return { t, user, other, site: await newSite(t, user) };
}
