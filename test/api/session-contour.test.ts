import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_MODULES } from '../../src/http/route-modules.js';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { admin, newSite, newUser, type TestUser } from '../support/factories.js';
import { PUBLIC_URL, startApp, type TestApp } from '../support/app.js';
import type { CallOptions } from '../support/client.js';
import { form, PNG } from '../support/images.js';
import { createBlock, createPage, feedFields, heroFields } from '../support/library.js';

// The public API's operations, registered a second time under /api behind the
// session hook: the web app drives them with its cookie, never with a key.

let t: TestApp;
let fake: FakeFourcms;
let user: TestUser;
let site: { id: number };
let hero: { id: number };
let page: { id: number };

beforeAll(async () => {
  fake = await startFakeFourcms({ token: 'fake-token-123' });
  t = await startApp({ overrides: { providerTimeoutMs: 4_000 } });
  user = await newUser(t);
  site = await newSite(t, user);
  hero = await createBlock(t, user, { name: 'Hero', template: '<h1>{{ title }}</h1>', schema_content: heroFields });
  page = await createPage(t, user, {
    name: 'Home',
    site_id: site.id,
    slug: 'home',
    blocks: [{ block_id: hero.id, placeholder_values: { title: 'Hello' } }],
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const FOREIGN = 'https://evil.test';
const withCookie = (options: CallOptions, origin?: string): CallOptions => ({
  ...options,
  cookie: user.cookie,
  headers: { ...options.headers, ...(origin && { origin }) },
});

describe('the route table', () => {
  it('has every /api/v1 operation under /api too, but the key-only ones', () => {
    const routes = t.app.http.routeTable.routes;
    const v1 = routes
      .filter((r) => r.includes(' /api/v1/') && !r.includes('/docs'))
      .map((r) => r.replace(' /api/v1/', ' /api/'));
    expect(v1.length).toBeGreaterThan(60);
    const missing = v1.filter((r) => !routes.includes(r));
    const keyOnly = ROUTE_MODULES.filter((m) => m.keyOnly).map((m) => `/api/${m.name}`);
    // Nothing is missing unless a module says it is key-only.
    expect(missing.filter((r) => !keyOnly.some((prefix) => r.split(' ')[1]!.startsWith(prefix)))).toEqual([]);
  });

  it('documents them in /api/docs.json with the cookie scheme and the same schemas as /api/v1', async () => {
    const web = (await t.call('GET', '/api/docs.json')).body;
    const v1 = (await t.call('GET', '/api/v1/docs.json')).body;
    expect(web.paths['/api/pages/{id}/preview']).toBeDefined();
    expect(web.paths['/api/pages']).toEqual(v1.paths['/api/v1/pages']);
    expect(web.paths['/api/sites'].post).toEqual(v1.paths['/api/v1/sites'].post);
    expect(Object.keys(web.paths)).toContain('/api/api-keys');
  });
});

describe('a key-only module', () => {
  it('is registered on /api/v1 and skipped on /api', async () => {
    const { registerModules } = await import('../../src/http/route-modules.js');
    const seen: string[] = [];
    const fakeScope = {} as never;
    const modules = [
      { name: 'both', register: () => void seen.push('both') },
      { name: 'agents', keyOnly: true, register: () => void seen.push('agents') },
    ];
    await registerModules(fakeScope, {} as never, 'session', modules);
    expect(seen).toEqual(['both']);
    await registerModules(fakeScope, {} as never, 'key', modules);
    expect(seen).toEqual(['both', 'both', 'agents']);
  });
});

interface Case {
  module: string;
  method: string;
  path: () => string;
  options?: () => CallOptions;
  status: number;
}

// One state-changing operation of each module that has one.
const cases: Case[] = [
  {
    module: 'sites',
    method: 'POST',
    path: () => '/api/sites',
    options: () => ({ body: { name: 'Blog' } }),
    status: 201,
  },
  {
    module: 'blocks',
    method: 'POST',
    path: () => '/api/blocks',
    options: () => ({ body: { name: 'Feed', template: '<ul></ul>', schema_content: feedFields } }),
    status: 201,
  },
  {
    module: 'collections',
    method: 'POST',
    path: () => '/api/collections',
    options: () => ({ body: { name: 'Picks' } }),
    status: 201,
  },
  { module: 'submissions', method: 'POST', path: () => `/api/blocks/${hero.id}/submit`, status: 201 },
  {
    module: 'pages',
    method: 'POST',
    path: () => '/api/pages',
    options: () => ({ body: { name: 'About', site_id: site.id, slug: 'about' } }),
    status: 201,
  },
  {
    module: 'page-blocks',
    method: 'POST',
    path: () => `/api/pages/${page.id}/blocks`,
    options: () => ({ body: { blocks: [{ block_id: hero.id, placeholder_values: { title: 'More' } }] } }),
    status: 201,
  },
  {
    module: 'page-versions',
    method: 'POST',
    path: () => `/api/pages/${page.id}/versions/1/restore`,
    status: 200,
  },
  {
    module: 'folders',
    method: 'POST',
    path: () => '/api/folders',
    options: () => ({ body: { site_id: site.id, name: 'News' } }),
    status: 201,
  },
  {
    module: 'layouts',
    method: 'POST',
    path: () => '/api/layouts',
    options: () => ({ body: { name: 'Frame', template: '<main>{{ content }}</main>' } }),
    status: 201,
  },
  {
    module: 'publishing',
    method: 'PUT',
    path: () => `/api/sites/${site.id}/provider/fourcms`,
    options: () => ({ body: { base_url: fake.url, token: fake.token } }),
    status: 200,
  },
  {
    module: 'upgrade-sets',
    method: 'POST',
    path: () => `/api/blocks/${hero.id}/upgrades`,
    options: () => ({ body: {} }),
    status: 200,
  },
  {
    module: 'webhooks',
    method: 'POST',
    path: () => '/api/webhooks',
    options: () => ({ body: { url: 'http://127.0.0.1:9/hook', events: ['page.created'] } }),
    status: 201,
  },
  {
    module: 'uploads',
    method: 'POST',
    path: () => `/api/blocks/${hero.id}/cover`,
    options: () => ({ rawBody: form('file', PNG, 'cover.png') }),
    status: 200,
  },
];

describe.each(cases)('the $module module on the cookie contour', ({ method, path, options, status }) => {
  it(`refuses ${method} from another origin and changes nothing, and runs it from the app's origin`, async () => {
    const before = await t.app.database.db.selectFrom('sites').select('id').execute();
    const forged = await t.call(method, path(), withCookie(options?.() ?? {}, FOREIGN));
    expect(forged.status, forged.text).toBe(403);
    expect(forged.body.error).toMatch(/cross-origin request refused/i);
    expect(await t.app.database.db.selectFrom('sites').select('id').execute()).toEqual(before);

    const sameSiteForged = await t.call(
      method,
      path(),
      withCookie({ ...options?.(), headers: { 'sec-fetch-site': 'cross-site' } }),
    );
    expect(sameSiteForged.status, sameSiteForged.text).toBe(403);

    const real = await t.call(method, path(), withCookie(options?.() ?? {}, PUBLIC_URL));
    expect(real.status, real.text).toBe(status);
  });

  it(`answers ${method} without a session with 401`, async () => {
    const r = await t.call(method, path(), { ...options?.(), headers: { origin: PUBLIC_URL } });
    expect(r.status).toBe(401);
    expect(r.body.error).toMatch(/sign-in required/i);
  });
});

it('covers every module that changes something', () => {
  const readOnly = ['catalog'];
  const covered = cases.map((c) => c.module);
  expect(
    ROUTE_MODULES.filter((m) => !m.keyOnly)
      .map((m) => m.name)
      .filter((name) => !readOnly.includes(name))
      .sort(),
  ).toEqual([...covered].sort());
});

describe('reads on the cookie contour', () => {
  it('serves the catalog, lists and placeholder schemas to the session, whatever the Origin', async () => {
    for (const path of [
      '/api/data-sources',
      '/api/tags',
      '/api/page-types',
      '/api/blocks',
      '/api/pages',
      '/api/sites',
    ]) {
      const r = await t.call('GET', path, withCookie({}, FOREIGN));
      expect(r.status, path).toBe(200);
    }
    const schema = await t.call('GET', `/api/blocks/${hero.id}/placeholder-schema`, withCookie({}));
    expect(schema.status).toBe(200);
    expect(schema.body.schema.required).toContain('title');
    expect((await t.call('GET', '/api/data-sources')).status).toBe(401);
  });

  it('previews a page as sandboxed HTML', async () => {
    const r = await t.call('GET', `/api/pages/${page.id}/preview`, withCookie({}));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/text\/html/);
    expect(r.headers.get('content-security-policy')).toMatch(/sandbox/);
    expect(r.text).toContain('<h1>Hello</h1>');
  });

  it('answers a validation error with the same paths as /api/v1', async () => {
    const body = { name: 'Bad', site_id: site.id, blocks: [{ block_id: hero.id, placeholder_values: { title: 7 } }] };
    const cookie = await t.call('POST', '/api/pages', withCookie({ body }, PUBLIC_URL));
    const key = await t.call('POST', '/api/v1/pages', { key: user.key, body });
    expect(cookie.status).toBe(400);
    expect(cookie.body).toEqual(key.body);
    expect(cookie.body.errors[0].path).toBe('blocks[0].placeholder_values.title');
  });

  it('deletes with the same rules: a site of another user is 403 on both contours', async () => {
    const other = await newUser(t);
    const theirs = await newSite(t, other, 'Theirs');
    const r = await t.call('DELETE', `/api/sites/${theirs.id}`, withCookie({}, PUBLIC_URL));
    expect(r.status).toBe(403);
    expect((await t.call('DELETE', `/api/v1/sites/${theirs.id}`, { key: user.key })).status).toBe(403);
    expect((await t.call('GET', `/api/sites/${theirs.id}`, { cookie: other.cookie })).status).toBe(200);
  });

  it('accepts the Origin of the host the app was opened under', async () => {
    const r = await t.call(
      'POST',
      '/api/collections',
      withCookie({ body: { name: 'Local' }, headers: { origin: t.url } }),
    );
    expect(r.status, r.text).toBe(201);
  });
});

describe('sites from a key', () => {
  it('creates, renames and deletes a site with only a key', async () => {
    const created = await t.call('POST', '/api/v1/sites', { key: user.key, body: { name: 'Agent site' } });
    expect(created.status).toBe(201);
    const renamed = await t.call('PUT', `/api/v1/sites/${created.body.id}`, {
      key: user.key,
      body: { name: 'Renamed' },
    });
    expect(renamed.body.name).toBe('Renamed');
    expect((await t.call('GET', `/api/sites/${created.body.id}`, { cookie: user.cookie })).body.name).toBe('Renamed');
    expect((await t.call('DELETE', `/api/v1/sites/${created.body.id}`, { key: user.key })).status).toBe(204);
    expect((await t.call('GET', `/api/v1/sites/${created.body.id}`, { key: user.key })).status).toBe(404);
  });
});

describe('a blocked account on the cookie contour', () => {
  it('sees that it is blocked, is refused every operation, and can sign out', async () => {
    const blocked = await newUser(t);
    const administrator = await admin(t);
    const block = await t.call('PUT', `/api/admin/users/${blocked.id}`, {
      cookie: administrator.cookie,
      body: { is_blocked: true },
    });
    expect(block.status).toBe(200);
    const me = await t.call('GET', '/api/auth/me', { cookie: blocked.cookie });
    expect(me.status).toBe(200);
    expect(me.body.user.is_blocked).toBe(true);
    for (const [method, path] of [
      ['GET', '/api/blocks'],
      ['GET', '/api/pages'],
      ['POST', '/api/sites'],
    ] as const) {
      const r = await t.call(method, path, {
        cookie: blocked.cookie,
        body: method === 'POST' ? { name: 'x' } : undefined,
      });
      expect(r.status, path).toBe(403);
      expect(r.body.error).toBe('This account is blocked.');
    }
    const login = await t.call('POST', '/api/auth/login', { body: { email: blocked.email, password: 'password-123' } });
    expect(login.status).toBe(403);
    expect(login.body.error).toBe('This account is blocked.');
    expect((await t.call('POST', '/api/auth/logout', { cookie: blocked.cookie })).status).toBe(204);
  });
});
