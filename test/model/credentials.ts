import fc from 'fast-check';
import { cookieFrom } from '../support/client.js';
import type { Real } from './real.js';
import { all, type World } from './world.js';

/**
 * A user replaces a credential: a new API key and the old one deleted, or a
 * new session and the old one signed out. The old one answers 401 at once,
 * the new one lists exactly the user's sites, and later steps use it.
 */
export class CredentialCommand implements fc.AsyncCommand<World, Real> {
  constructor(
    readonly who: number,
    readonly what: 'key' | 'session',
  ) {}

  check = () => true;

  async run(model: World, real: Real): Promise<void> {
    const { t } = real;
    const user = real.users[this.who]!;
    const fail = (why: string) => {
      throw new Error(`user ${this.who} replacing their ${this.what}: ${why}`);
    };
    if (this.what === 'key') {
      const listed = await t.call('GET', '/api/api-keys', { cookie: user.cookie });
      const old = (listed.body.data as { id: number; prefix: string }[]).find((k) => user.key.startsWith(k.prefix));
      if (!old) fail(`the key list ${listed.text} does not show the key in use`);
      const created = await t.call('POST', '/api/api-keys', { cookie: user.cookie, body: { title: 'rotated' } });
      if (created.status !== 201) fail(`POST /api/api-keys answered ${created.status} ${created.text}`);
      const deleted = await t.call('DELETE', `/api/api-keys/${old!.id}`, { cookie: user.cookie });
      if (deleted.status !== 204) fail(`DELETE /api/api-keys/${old!.id} answered ${deleted.status} ${deleted.text}`);
      const before = user.key;
      user.key = created.body.key;
      const refused = await t.call('GET', '/api/v1/sites', { key: before });
      if (refused.status !== 401) fail(`the deleted key still answers ${refused.status}`);
    } else {
      const login = await t.call('POST', '/api/auth/login', { body: { email: user.email, password: 'password-123' } });
      if (login.status !== 200) fail(`login answered ${login.status} ${login.text}`);
      const before = user.cookie;
      const out = await t.call('POST', '/api/auth/logout', { cookie: before });
      if (out.status >= 300) fail(`logout answered ${out.status} ${out.text}`);
      user.cookie = cookieFrom(login.headers);
      const refused = await t.call('GET', '/api/sites', { cookie: before });
      if (refused.status !== 401) fail(`the signed-out session still answers ${refused.status}`);
    }
    const sites = await t.call(
      'GET',
      this.what === 'key' ? '/api/v1/sites' : '/api/sites',
      this.what === 'key' ? { key: user.key, query: { limit: 200 } } : { cookie: user.cookie, query: { limit: 200 } },
    );
    const got = (sites.body.data as { id: number }[]).map((s) => s.id).sort((a, b) => a - b);
    const want = all(model.sites)
      .filter((s) => s.owner === this.who)
      .map((s) => s.id)
      .sort((a, b) => a - b);
    if (JSON.stringify(got) !== JSON.stringify(want))
      fail(`the new ${this.what} lists sites ${JSON.stringify(got)}, the model ${JSON.stringify(want)}`);
  }

  toString() {
    return `replace${this.what === 'key' ? 'Key' : 'Session'}(who ${this.who})`;
  }
}
