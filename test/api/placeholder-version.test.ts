import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage, feedFields } from '../support/library.js';

// An instance stays on the revision it was added with until it is upgraded, and
// its values are checked against that revision: `?version=` gives its contract.

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let block: { id: number };
let page: { id: number; blocks: { id: number; version: { major: number; minor: number } }[] };

const v1Fields = [
  { name: 'title', type: 'string', required: true },
  { name: 'tagline', type: 'string' },
];
// `tagline` removed (major), `subtitle` added and required.
const v2Fields = [
  { name: 'title', type: 'string', required: true },
  { name: 'subtitle', type: 'string', required: true, default: 'Sub' },
];

beforeAll(async () => {
  t = await startApp();
  owner = await newUser(t);
  stranger = await newUser(t);
  const site = await newSite(t, owner);
  block = await createBlock(t, owner, { name: 'Banner', schema_content: v1Fields });
  page = await createPage(t, owner, {
    name: 'Home',
    site_id: site.id,
    blocks: [{ block_id: block.id, placeholder_values: { title: 'Hello', tagline: 'Old' } }],
  });
  const updated = await t.call('PUT', `/api/v1/blocks/${block.id}`, {
    key: owner.key,
    body: { schema_content: v2Fields },
  });
  expect(updated.body.version_bump).toBe('major');
});
afterAll(() => t.close());

const schemaOf = (id: number, query: Record<string, string>, who = owner) =>
  t.call('GET', `/api/v1/blocks/${id}/placeholder-schema`, { key: who.key, query });

describe('GET /blocks/{id}/placeholder-schema?version=', () => {
  it('gives the contract of the pinned revision, not the current one', async () => {
    const old = await schemaOf(block.id, { version: '1.0' });
    expect(old.status).toBe(200);
    expect(Object.keys(old.body.schema.properties).sort()).toEqual(['tagline', 'title']);
    expect(old.body.schema.required).toEqual(['title']);
    expect(old.body.example).not.toHaveProperty('subtitle');

    const current = await schemaOf(block.id, {});
    expect(Object.keys(current.body.schema.properties).sort()).toEqual(['subtitle', 'title']);
    expect(await schemaOf(block.id, { version: '2.0' })).toMatchObject({ status: 200, body: current.body });
  });

  it('is the contract the service checks the outdated instance against', async () => {
    const instance = page.blocks[0]!;
    expect(instance.version).toEqual({ major: 1, minor: 0 });
    const version = `${instance.version.major}.${instance.version.minor}`;
    const contract = (await schemaOf(block.id, { version })).body;
    const path = `/api/v1/pages/${page.id}/blocks/${instance.id}`;

    // Valid by the old contract (no `subtitle`, a `tagline`): accepted.
    const saved = await t.call('PUT', path, {
      key: owner.key,
      body: { placeholder_values: { title: 'Kept', tagline: 'Still here' } },
    });
    expect(saved.status).toBe(200);
    // What the old contract requires is required.
    expect(contract.schema.required).toEqual(['title']);
    const refused = await t.call('PUT', path, { key: owner.key, body: { placeholder_values: { tagline: 'x' } } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ path: 'placeholder_values.title' })]);
  });

  it('answers 404 at `version` for a version the block never had', async () => {
    for (const version of ['1.1', '3.0', '0.0']) {
      const r = await schemaOf(block.id, { version });
      expect(r.status, version).toBe(404);
      expect(r.body.error).toBe(`Block ${block.id} has no revision ${version}.`);
      expect(r.body.errors).toEqual([expect.objectContaining({ path: 'version', code: 'not_found' })]);
    }
  });

  it('answers 400 at `version` for a malformed one', async () => {
    for (const version of ['1', '1.', '.1', '1.0.0', 'v1.0', '01.0', '1.00', '-1.0', '1234567890.0', '']) {
      const r = await schemaOf(block.id, { version });
      expect(r.status, version).toBe(400);
      expect(r.body.errors, version).toEqual([expect.objectContaining({ path: 'version', code: 'pattern' })]);
    }
  });

  it('keeps the block’s access rules: 403 for a stranger, 404 for no block', async () => {
    expect((await schemaOf(block.id, { version: '1.0' }, stranger)).status).toBe(403);
    // A stranger learns nothing of the revisions either.
    expect((await schemaOf(block.id, { version: '9.0' }, stranger)).status).toBe(403);
    const none = await schemaOf(999999, { version: '1.0' });
    expect(none.status).toBe(404);
    expect(none.body.error).toBe('Block 999999 not found.');
  });

  it('inlines the sources of that revision’s slots with expand=sources', async () => {
    const feed = await createBlock(t, owner, { name: 'Feed', schema_content: feedFields });
    await t.call('PUT', `/api/v1/blocks/${feed.id}`, {
      key: owner.key,
      body: { schema_content: [feedFields[0]] },
    });
    expect((await schemaOf(feed.id, { expand: 'sources' })).body.binding_slots).toEqual([]);
    const old = await schemaOf(feed.id, { expand: 'sources', version: '1.0' });
    expect(old.status).toBe(200);
    expect(old.body.binding_slots[0].sources.map((s: { id: string }) => s.id)).toEqual([
      'articles.latest',
      'articles.by_rubric',
    ]);
  });

  it('is served on the cookie contour too', async () => {
    const r = await t.call('GET', `/api/blocks/${block.id}/placeholder-schema`, {
      cookie: owner.cookie,
      query: { version: '1.0' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual((await schemaOf(block.id, { version: '1.0' })).body);
    const missing = await t.call('GET', `/api/blocks/${block.id}/placeholder-schema`, {
      cookie: owner.cookie,
      query: { version: '7.7' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].path).toBe('version');
  });
});
