import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import type { Reply } from '../support/client.js';
import { admin, newSite, newUser, type TestUser } from '../support/factories.js';
import { form, PNG } from '../support/images.js';
import { createBlock, createPage, heroFields } from '../support/library.js';

/**
 * Every route Fastify knows, called as every identity, answers the documented
 * status and never shows one user's objects to another. A route without a row
 * here fails the test: a new route has to say who may call it.
 */
type Access =
  /** Anyone, signed in or not (health, docs, sign-in). */
  | { kind: 'open' }
  /** Any session, a blocked account's included (to see that it is blocked, and leave). */
  | { kind: 'session' }
  /** Any active user; lists and catalogs never show another user's objects. */
  | { kind: 'user' }
  /** An object of its owner: any other user, administrators included, gets `foreign`. */
  | { kind: 'owned'; foreign: 403 | 404 }
  /** Administrators only. */
  | { kind: 'admin' };

const open: Access = { kind: 'open' };
const session: Access = { kind: 'session' };
const user: Access = { kind: 'user' };
const adminOnly: Access = { kind: 'admin' };
const owned = (foreign: 403 | 404): Access => ({ kind: 'owned', foreign });

const MATRIX: Record<string, Access> = {
  'GET /health': open,
  'GET /ready': open,
  'GET /uploads/*': open,

  'GET /api/v1/sites': user,
  'POST /api/v1/sites': user,
  'GET /api/v1/sites/:id': owned(403),
  'PUT /api/v1/sites/:id': owned(403),
  'DELETE /api/v1/sites/:id': owned(403),
  'GET /api/v1/sites/:id/provider': owned(403),
  'PUT /api/v1/sites/:id/provider/fourcms': owned(403),
  'POST /api/v1/sites/:id/provider/check': owned(403),
  'GET /api/v1/sites/:id/s3/status': owned(403),
  'POST /api/v1/sites/:id/s3/upload': owned(403),
  'GET /api/v1/sites/:id/uploads': owned(403),
  'DELETE /api/v1/sites/:id/uploads/:name': owned(403),

  'GET /api/v1/blocks': user,
  'POST /api/v1/blocks': user,
  'GET /api/v1/blocks/favorites': user,
  'GET /api/v1/blocks/:id': owned(403),
  'PUT /api/v1/blocks/:id': owned(403),
  'DELETE /api/v1/blocks/:id': owned(403),
  'POST /api/v1/blocks/:id/fork': owned(403),
  'PUT /api/v1/blocks/:id/favorite': owned(403),
  'DELETE /api/v1/blocks/:id/favorite': owned(403),
  'GET /api/v1/blocks/:id/usages': owned(403),
  'GET /api/v1/blocks/:id/upgrade-plan': owned(403),
  'POST /api/v1/blocks/:id/upgrades': owned(403),
  'GET /api/v1/blocks/:id/upgrades': owned(403),
  'GET /api/v1/blocks/:id/adoption': owned(403),
  'POST /api/v1/upgrade-sets/:id/revert': owned(404),
  'GET /api/v1/blocks/:id/revisions': owned(403),
  'GET /api/v1/blocks/:id/placeholder-schema': owned(403),
  'POST /api/v1/blocks/:id/preview': owned(403),
  'POST /api/v1/blocks/:id/cover': owned(403),
  'POST /api/v1/blocks/:id/submit': owned(403),
  'GET /api/v1/search/blocks': user,

  'GET /api/v1/collections': user,
  'POST /api/v1/collections': user,
  'GET /api/v1/collections/:id': owned(403),
  'DELETE /api/v1/collections/:id': owned(403),
  'POST /api/v1/collections/:id/blocks': owned(403),
  'PUT /api/v1/collections/:id/blocks/order': owned(403),

  'GET /api/v1/block-submissions': user,
  'DELETE /api/v1/block-submissions/:id': owned(404),

  'GET /api/v1/pages': user,
  'POST /api/v1/pages': user,
  'POST /api/v1/mcp': user,
  'GET /api/v1/mcp': user,
  'DELETE /api/v1/mcp': user,
  'GET /api/v1/pages/:id': owned(404),
  'PUT /api/v1/pages/:id': owned(404),
  'DELETE /api/v1/pages/:id': owned(404),
  'GET /api/v1/search/pages': user,
  'POST /api/v1/pages/:pageId/blocks': owned(404),
  'PUT /api/v1/pages/:pageId/blocks/:pbId': owned(404),
  'PUT /api/v1/pages/:pageId/blocks/:pbId/move': owned(404),
  'DELETE /api/v1/pages/:pageId/blocks/:pbId': owned(404),
  'POST /api/v1/pages/:pageId/blocks/:pbId/upgrade': owned(404),
  'POST /api/v1/pages/:pageId/blocks/:pbId/migrate': owned(404),
  'POST /api/v1/pages/:pageId/blocks/upgrade-all': owned(404),
  'PUT /api/v1/pages/:pageId/blocks/:pbId/replace': owned(404),
  'GET /api/v1/pages/:id/publication': owned(404),
  'POST /api/v1/pages/:id/publish': owned(404),
  'POST /api/v1/pages/:id/publish-update': owned(404),
  'POST /api/v1/pages/:id/schedule': owned(404),
  'DELETE /api/v1/pages/:id/schedule': owned(404),
  'GET /api/v1/pages/:id/preview': owned(404),
  'POST /api/v1/pages/:id/preview': owned(404),
  'GET /api/v1/pages/:id/versions': owned(404),
  'GET /api/v1/pages/:id/versions/:number': owned(404),
  'GET /api/v1/pages/:id/versions/:number/preview': owned(404),
  'GET /api/v1/pages/:id/versions/:number/diff': owned(404),
  'POST /api/v1/pages/:id/versions/:number/restore': owned(404),

  'GET /api/v1/webhooks': user,
  'POST /api/v1/webhooks': user,
  'GET /api/v1/webhooks/:id': owned(404),
  'PUT /api/v1/webhooks/:id': owned(404),
  'DELETE /api/v1/webhooks/:id': owned(404),
  'POST /api/v1/webhooks/:id/secret': owned(404),
  'GET /api/v1/webhooks/:id/deliveries': owned(404),
  'POST /api/v1/webhooks/:id/deliveries/:did/redeliver': owned(404),
  'POST /api/v1/webhooks/:id/test': owned(404),

  'GET /api/v1/data-sources': user,
  'GET /api/v1/data-sources/:id': user,
  'GET /api/v1/data-result-types': user,
  'GET /api/v1/data-result-types/:id': user,
  'GET /api/v1/page-types': user,
  'GET /api/v1/tags': user,
  'GET /api/v1/layout-tags': user,

  'GET /api/v1/folders': user,
  'POST /api/v1/folders': user,
  'GET /api/v1/folders/:id': owned(403),
  'PUT /api/v1/folders/:id': owned(403),
  'DELETE /api/v1/folders/:id': owned(403),

  'GET /api/v1/layouts': user,
  'POST /api/v1/layouts': user,
  'GET /api/v1/layouts/:id': owned(403),
  'PUT /api/v1/layouts/:id': owned(403),
  'DELETE /api/v1/layouts/:id': owned(403),
  'POST /api/v1/layouts/:id/fork': owned(403),

  'POST /api/auth/register': open,
  'POST /api/auth/login': open,
  'POST /api/auth/logout': session,
  'GET /api/auth/me': session,
  'GET /api/api-keys': user,
  'POST /api/api-keys': user,
  'DELETE /api/api-keys/:id': owned(404),
  'GET /api/sites': user,
  'POST /api/sites': user,
  'GET /api/sites/:id': owned(403),
  'PUT /api/sites/:id': owned(403),
  'DELETE /api/sites/:id': owned(403),

  'GET /api/admin/users': adminOnly,
  'PUT /api/admin/users/:id': adminOnly,
  'POST /api/admin/blocks': adminOnly,
  'PUT /api/admin/blocks/:id': adminOnly,
  'PUT /api/admin/blocks/:id/deprecation': adminOnly,
  'POST /api/admin/collections': adminOnly,
  'POST /api/admin/layouts': adminOnly,
  'GET /api/admin/block-submissions': adminOnly,
  'GET /api/admin/block-submissions/:id': adminOnly,
  'GET /api/admin/block-submissions/:id/preview': adminOnly,
  'POST /api/admin/block-submissions/:id/approve': adminOnly,
  'POST /api/admin/block-submissions/:id/reject': adminOnly,
};
for (const resource of ['tags', 'layout-tags', 'data-result-types', 'data-sources']) {
  for (const route of [`GET /`, `POST /`, `PUT /:id`, `DELETE /:id`]) {
    const [method, rest] = route.split(' ');
    MATRIX[`${method} /api/admin/${resource}${rest === '/' ? '' : rest}`] = adminOnly;
  }
}
for (const route of ['GET ', 'POST ', 'PUT /:kind', 'DELETE /:kind']) {
  const [method, rest] = route.split(' ');
  MATRIX[`${method} /api/admin/page-types${rest}`] = adminOnly;
}
// The OpenAPI documents and their UI are public on both contours.
for (const prefix of ['/api/v1', '/api']) {
  for (const path of [
    '.json',
    '',
    '/static/index.html',
    '/static/swagger-initializer.js',
    '/json',
    '/guide',
    '/yaml',
    '/static/*',
  ]) {
    MATRIX[`GET ${prefix}/docs${path}`] = open;
  }
}

/**
 * A valid body where the route needs one: validation comes before object-level
 * authorization, and an empty body would stop the call before the rule under test.
 */
const BODIES: Record<string, () => unknown> = {
  'POST /api/v1/collections/:id/blocks': () => ({ block_ids: [ids.blocks] }),
  'PUT /api/v1/collections/:id/blocks/order': () => ({ block_ids: [ids.blocks] }),
  'POST /api/v1/pages/:pageId/blocks': () => ({
    blocks: [{ block_id: ids.blocks, placeholder_values: { title: 'x' } }],
  }),
  'PUT /api/v1/pages/:pageId/blocks/:pbId': () => ({ placeholder_values: { title: 'x' } }),
  'PUT /api/v1/pages/:pageId/blocks/:pbId/move': () => ({ position: 0 }),
  'PUT /api/v1/pages/:pageId/blocks/:pbId/replace': () => ({
    block_id: ids.blocks,
    placeholder_values: { title: 'x' },
  }),
  'POST /api/v1/pages/:id/schedule': () => ({
    publish_at: new Date(Date.now() + 3_600_000).toISOString(),
    rubric_ids: [1],
  }),
  'POST /api/v1/webhooks': () => ({ url: 'http://127.0.0.1:9/hook', events: ['page.created'] }),
  'PUT /api/v1/webhooks/:id': () => ({ description: 'matrix' }),
  'PUT /api/v1/sites/:id/provider/fourcms': () => ({ base_url: 'http://127.0.0.1:9', token: 'matrix-token' }),
  'POST /api/v1/blocks/:id/cover': () => form('file', PNG, 'cover.png'),
  'POST /api/v1/sites/:id/s3/upload': () => form('file', PNG, 'file.png'),
};

/** The v1 original of a route mirrored on the cookie contour, or the route itself. */
const v1Twin = (route: string) => {
  const [method, path] = route.split(' ') as [string, string];
  return path.startsWith('/api/') && !path.startsWith('/api/v1/') ? `${method} /api/v1/${path.slice(5)}` : route;
};

function bodyOf(route: string): { body?: unknown; rawBody?: FormData } {
  const make = BODIES[route] ?? BODIES[v1Twin(route)];
  const method = route.split(' ')[0];
  const body = make ? make() : method === 'GET' || method === 'DELETE' ? undefined : {};
  return body instanceof FormData ? { rawBody: body } : { body };
}

/**
 * The row of a route. A v1 resource mirrored on the cookie contour
 * (`/api/pages` beside `/api/v1/pages`) has the same rules as the original.
 */
function accessOf(route: string): Access | undefined {
  if (MATRIX[route]) return MATRIX[route];
  const [method, path] = route.split(' ') as [string, string];
  if (path.startsWith('/api/') && !path.startsWith('/api/v1/')) {
    return MATRIX[`${method} /api/v1/${path.slice('/api/'.length)}`];
  }
  return undefined;
}

type Identity = 'anonymous' | 'unknown' | 'wrong contour' | 'blocked' | 'other' | 'admin' | 'owner';
const IDENTITIES: Identity[] = ['anonymous', 'unknown', 'wrong contour', 'blocked', 'other', 'admin', 'owner'];

// A string in every object of the owner: it must never reach anyone else.
const MARK = `mark${randomBytes(5).toString('hex')}`;

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let blocked: TestUser;
let root: TestUser;
const ids: Record<string, string | number> = {};
const documented = new Map<string, string[]>();

beforeAll(async () => {
  t = await startApp();
  root = await admin(t);
  owner = await newUser(t, { email: `${MARK}@example.test` });
  other = await newUser(t);
  blocked = await newUser(t);
  const world = await ownerWorld();
  // Administrators decide this submission; the owner withdraws the world's own.
  const second = await createBlock(t, owner, { name: `${MARK} second` });
  const submission = await t.call('POST', `/api/v1/blocks/${second.id}/submit`, { key: owner.key });
  expect(submission.status).toBe(201);
  const cover = await t.call('POST', `/api/v1/blocks/${second.id}/cover`, {
    key: owner.key,
    rawBody: form('file', PNG, 'cover.png'),
  });
  expect(cover.status).toBe(200);

  const asAdmin = async (path: string, body: unknown) => {
    const r = await t.call('POST', path, { cookie: root.cookie, body });
    if (r.status !== 201) throw new Error(`${path}: ${r.status} ${r.text}`);
    return r.body;
  };
  const global = await asAdmin('/api/admin/blocks', { name: 'Global', template: '<p></p>' });
  const tag = await asAdmin('/api/admin/tags', { name: 'Matrix tag' });
  const layoutTag = await asAdmin('/api/admin/layout-tags', { name: 'Matrix layout tag' });
  const blocking = await t.call('PUT', `/api/admin/users/${blocked.id}`, {
    cookie: root.cookie,
    body: { is_blocked: true },
  });
  expect(blocking.status).toBe(200);

  Object.assign(ids, {
    ...world,
    uploads: cover.body.url,
    'admin/blocks': global.id,
    'admin/tags': tag.id,
    'admin/layout-tags': layoutTag.id,
    'admin/page-types': 'article',
    'admin/data-sources': 'articles.latest',
    'admin/data-result-types': 'article_list',
    'admin/users': owner.id,
    'admin/block-submissions': submission.body.id,
    'data-sources': 'articles.latest',
    'data-result-types': 'article_list',
  });

  for (const prefix of ['/api/v1', '/api']) {
    const document = (await t.call('GET', `${prefix}/docs.json`)).body;
    for (const [path, operations] of Object.entries<Record<string, { responses: Record<string, unknown> }>>(
      document.paths,
    )) {
      for (const [method, operation] of Object.entries(operations)) {
        documented.set(
          `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
          Object.keys(operation.responses),
        );
      }
    }
  }
});
afterAll(() => t.close());

/** A site of the owner with one of everything in it; each removal gets its own. */
async function ownerWorld(): Promise<Record<string, number | string>> {
  const as = (method: string, path: string, body?: unknown) =>
    t.call(method, path, { key: owner.key, body }).then((r) => {
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
      return r.body;
    });
  const site = await newSite(t, owner, `${MARK} site`);
  const block = await createBlock(t, owner, {
    name: `${MARK} block`,
    template: '<h1>{{ title }}</h1>',
    schema_content: heroFields,
  });
  const folder = await as('POST', '/api/v1/folders', { name: `${MARK} folder`, site_id: site.id });
  const page = await createPage(t, owner, {
    name: `${MARK} page`,
    site_id: site.id,
    folder_id: folder.id,
    slug: MARK,
    blocks: [{ block_id: block.id, placeholder_values: { title: MARK } }],
  });
  const layout = await as('POST', '/api/v1/layouts', {
    name: `${MARK} layout`,
    template: '<main>{{ content }}</main>',
  });
  const collection = await as('POST', '/api/v1/collections', { name: `${MARK} collection` });
  await as('POST', `/api/v1/collections/${collection.id}/blocks`, { block_ids: [block.id] });
  await as('PUT', `/api/v1/blocks/${block.id}/favorite`);
  const pending = await as('POST', `/api/v1/blocks/${block.id}/submit`);
  const key = (await t.call('POST', '/api/api-keys', { cookie: owner.cookie, body: { title: `${MARK} key` } })).body;
  const upload = await t.call('POST', `/api/v1/sites/${site.id}/s3/upload`, {
    key: owner.key,
    rawBody: form('file', PNG, 'site.png'),
  });
  const webhook = await as('POST', '/api/v1/webhooks', {
    url: 'http://127.0.0.1:9/hook',
    events: ['page.created'],
    description: `${MARK} webhook`,
  });
  const delivery = await as('POST', `/api/v1/webhooks/${webhook.id}/test`);
  // An upgrade set of its own block and page, so that the world's instance stays as it is.
  const moving = await createBlock(t, owner, { name: `${MARK} moving`, template: '<p>1</p>' });
  await createPage(t, owner, { name: `${MARK} moving`, site_id: site.id, blocks: [{ block_id: moving.id }] });
  await as('PUT', `/api/v1/blocks/${moving.id}`, { template: '<p>2</p>' });
  const set = await as('POST', `/api/v1/blocks/${moving.id}/upgrades`, {});
  return {
    'upgrade-sets': set.id,
    webhooks: webhook.id,
    delivery: delivery.id,
    uploadName: String(upload.body.url).split('/').pop()!,
    sites: site.id,
    blocks: block.id,
    folders: folder.id,
    pages: page.id,
    pbId: page.blocks[0].id,
    layouts: layout.id,
    collections: collection.id,
    'block-submissions': pending.id,
    'api-keys': key.id,
  };
}

/** A concrete path for a route: the owner's objects, the administrator's on admin routes. */
function pathOf(route: string): string {
  const path = route.split(' ')[1]!;
  const rest = path.replace(/^\/api\/(v1\/)?/, '');
  const admin = rest.startsWith('admin/');
  const resource = admin ? rest.split('/').slice(0, 2).join('/') : rest.split('/')[0]!;
  return path
    .replace(/:(id|kind)\b/, () => String(ids[resource] ?? 'unknown'))
    .replace(':pageId', String(ids.pages))
    .replace(':pbId', String(ids.pbId))
    .replace(':did', String(ids.delivery))
    .replace(':name', String(ids.uploadName))
    .replace(':number', '1')
    .replace('/uploads/*', String(ids.uploads))
    .replace('*', 'index.css');
}

function credentials(identity: Identity, v1: boolean): { key?: string; cookie?: string } {
  const as = (u: TestUser, wrong = false) => (v1 !== wrong ? { key: u.key } : { cookie: u.cookie });
  switch (identity) {
    case 'anonymous':
      return {};
    case 'unknown':
      return v1
        ? { key: `pb_${randomBytes(32).toString('hex')}` }
        : { cookie: `pb_session=${randomBytes(32).toString('hex')}` };
    case 'wrong contour':
      return as(owner, true);
    case 'blocked':
      return as(blocked);
    case 'other':
      return as(other);
    case 'admin':
      return as(root);
    case 'owner':
      return as(owner);
  }
}

/** What the identity must get; `authorized` = anything but 401, 403 or 404 (and never a 5xx). */
function expected(access: Access, identity: Identity, v1: boolean): number | 'authorized' {
  if (access.kind === 'open') return 'authorized';
  const signedOut = identity === 'anonymous' || identity === 'unknown' || identity === 'wrong contour';
  if (signedOut) return 401;
  if (identity === 'blocked') return access.kind === 'session' && !v1 ? 'authorized' : 403;
  switch (access.kind) {
    case 'session':
    case 'user':
      return 'authorized';
    case 'owned':
      return identity === 'owner' ? 'authorized' : access.foreign;
    case 'admin':
      return identity === 'admin' ? 'authorized' : 403;
  }
}

/** Signing out ends the sessions the other rows use: it goes last. */
const runOrder = (routes: string[]) =>
  [...routes].sort((a, b) => Number(a === 'POST /api/auth/logout') - Number(b === 'POST /api/auth/logout'));

function checkAnswer(route: string, identity: Identity, reply: Reply, want: number | 'authorized', access: Access) {
  const where = `${route} as ${identity}: ${reply.status} ${reply.text.slice(0, 200)}`;
  expect.soft(reply.status, where).toBeLessThan(500);
  if (want === 'authorized') expect.soft([401, 403, 404], where).not.toContain(reply.status);
  else expect.soft(reply.status, where).toBe(want);
  if (reply.status >= 400) {
    expect.soft(reply.headers.get('content-type') ?? '', where).toContain('application/json');
    expect.soft(typeof reply.body?.error, where).toBe('string');
  }
  const statuses = documented.get(route);
  if (statuses && access.kind !== 'open')
    expect.soft(statuses, `${where}: status not documented`).toContain(String(reply.status));
  // The owner's objects reach the owner, and administrators on their own routes (a user's record).
  const mayShowOwner = identity === 'owner' || (identity === 'admin' && access.kind === 'admin');
  if (!mayShowOwner) expect.soft(reply.text, `${where}: shows the owner's data`).not.toContain(MARK);
}

describe('the authorization matrix', () => {
  it('has a row for every route Fastify serves', () => {
    const routes = t.app.http.routeTable.routes;
    expect(routes.length).toBeGreaterThan(100);
    expect(routes.filter((route) => !accessOf(route))).toEqual([]);
  });

  it('answers every route, as every identity, with the documented status and nothing of another user', async () => {
    let calls = 0;
    for (const route of runOrder(t.app.http.routeTable.routes)) {
      const access = accessOf(route)!;
      const [method] = route.split(' ') as [string];
      const shared = { ...ids };
      if (method === 'DELETE') Object.assign(ids, await ownerWorld());
      // A replacement gives the instance a new id: find the page's current first one.
      if (route.includes(':pbId')) {
        const page = await t.call('GET', `/api/v1/pages/${ids.pages}`, { key: owner.key, query: { with_blocks: 1 } });
        ids.pbId = page.body.blocks[0].id;
      }
      const path = pathOf(route);
      const v1 = path.startsWith('/api/v1/');
      // The owner acts last: a removal must find its object still there.
      for (const identity of IDENTITIES) {
        const want = expected(access, identity, v1);
        const reply = await t.call(method, path, { ...credentials(identity, v1), ...bodyOf(route) });
        checkAnswer(route, identity, reply, want, access);
        calls++;
      }
      Object.assign(ids, shared);
    }
    console.info(
      `authorization matrix: ${t.app.http.routeTable.routes.length} routes × ${IDENTITIES.length} identities = ${calls} calls`,
    );
  }, 300_000);
});
