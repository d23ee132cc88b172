/**
 * The publication status remembers the provider's refusal of the last
 * publish or publish-update (its message and when), until one succeeds; the
 * token never shows in it, nor in the row that keeps it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

let t: TestApp;
let fake: FakeFourcms;
let user: TestUser;
let siteId: number;
let block: { id: number };

beforeAll(async () => {
  fake = await startFakeFourcms({ token: 'fake-token-123' });
  t = await startApp({ overrides: { providerTimeoutMs: 4_000 } });
  user = await newUser(t);
  siteId = (await newSite(t, user)).id;
  block = await createBlock(t, user, { name: 'Plain', template: '<p>{{ title }}</p>' });
  const configured = await t.call('PUT', `/api/v1/sites/${siteId}/provider/fourcms`, {
    key: user.key,
    body: { base_url: fake.url, token: fake.token },
  });
  expect(configured.status).toBe(200);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const newPage = (site = siteId) =>
  createPage(t, user, {
    name: 'Story',
    site_id: site,
    blocks: [{ block_id: block.id, placeholder_values: { title: 'x' } }],
  });
const status = async (pageId: number) =>
  (await t.call('GET', `/api/pages/${pageId}/publication`, { cookie: user.cookie })).body;
const publish = (
  pageId: number,
  action: 'publish' | 'publish-update' = 'publish',
  body: unknown = { rubric_ids: [1] },
) => t.call('POST', `/api/v1/pages/${pageId}/${action}`, { key: user.key, body });

describe('a failed publication', () => {
  it('is remembered with the provider’s message and its time, and a success clears it', async () => {
    const page = await newPage();
    expect(await status(page.id)).toMatchObject({ last_error: null, last_error_at: null });
    fake.failNext('500');
    const failed = await publish(page.id);
    expect(failed.status).toBe(502);

    // Read again later, on either contour: the attempt failed, when, and why.
    const remembered = await status(page.id);
    expect(remembered).toMatchObject({ is_published: false, external_id: null, last_error: failed.body.error });
    expect(remembered.last_error).toContain('fake provider failure');
    expect(Date.parse(remembered.last_error_at)).not.toBeNaN();
    expect((await t.call('GET', `/api/v1/pages/${page.id}/publication`, { key: user.key })).body).toEqual(remembered);

    // A refusal that is not the provider's (a missing rubric) leaves the record as it was.
    expect((await publish(page.id, 'publish', {})).status).toBe(400);
    expect(await status(page.id)).toEqual(remembered);

    const published = await publish(page.id);
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ is_published: true, last_error: null, last_error_at: null });
    expect(await status(page.id)).toMatchObject({ is_published: true, last_error: null, last_error_at: null });
  });

  it('of an update keeps the published state beside the error, until an update succeeds', async () => {
    const page = await newPage();
    const first = await publish(page.id);
    expect(first.status).toBe(200);
    fake.failNext('401');
    const failed = await publish(page.id, 'publish-update', {});
    expect(failed.status).toBe(502);
    const remembered = await status(page.id);
    expect(remembered).toMatchObject({
      is_published: true,
      external_id: first.body.external_id,
      updated_at: first.body.updated_at,
      last_error: expect.stringMatching(/invalid token/),
    });
    expect(remembered.last_error_at >= first.body.updated_at).toBe(true);

    const updated = await publish(page.id, 'publish-update', {});
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ last_error: null, last_error_at: null });
    expect(await status(page.id)).toMatchObject({ last_error: null, last_error_at: null });
  });
});

describe('the token', () => {
  let echo: Server;
  const token = 'echoed-secret-token-42';
  beforeAll(async () => {
    // A provider that names the token it refuses in its message.
    echo = createServer((req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `token ${req.headers.authorization?.replace(/^Bearer /, '')} is revoked` }));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => echo.close(() => resolve())));

  it('is never kept nor shown with the message', async () => {
    const site = await newSite(t, user, 'Echo');
    const { port } = echo.address() as AddressInfo;
    await t.call('PUT', `/api/v1/sites/${site.id}/provider/fourcms`, {
      key: user.key,
      body: { base_url: `http://127.0.0.1:${port}`, token },
    });
    const page = await newPage(site.id);
    const failed = await publish(page.id);
    expect(failed.status).toBe(502);
    const remembered = await status(page.id);
    expect(remembered.last_error).toMatch(/revoked/);
    expect(JSON.stringify(remembered)).not.toContain(token);
    const row = await t.app.database.db
      .selectFrom('pages')
      .select(['publication_error'])
      .where('id', '=', page.id)
      .executeTakeFirstOrThrow();
    expect(row.publication_error).toMatch(/revoked/);
    expect(row.publication_error).not.toContain(token);
  });
});
