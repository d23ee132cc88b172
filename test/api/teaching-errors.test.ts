import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, feedFields, heroFields } from '../support/library.js';

let t: TestApp;
let user: TestUser;
let site: { id: number };
let hero: { id: number };
let feed: { id: number };
beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  site = await newSite(t, user);
  hero = await createBlock(t, user, { name: 'Hero', schema_content: heroFields });
  feed = await createBlock(t, user, { name: 'Feed', schema_content: feedFields });
});
afterAll(() => t.close());

const createPage = (body: unknown) => t.call('POST', '/api/v1/pages', { key: user.key, body });

describe('errors that teach the fix', () => {
  it('hints `name` when `title` was sent', async () => {
    const r = await createPage({ title: 'Home', site_id: site.id });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      {
        path: 'name',
        message: 'This field is required.',
        code: 'required',
        hint: '`title` is not a field here: did you mean `name`?',
      },
    ]);
  });

  it('says the type and how to send it for a string id', async () => {
    const r = await createPage({ name: 'Home', site_id: String(site.id) });
    expect(r.body.errors).toEqual([
      expect.objectContaining({
        path: 'site_id',
        code: 'type',
        expected: 'integer',
        hint: `send ${site.id} as a JSON number, without quotes`,
      }),
    ]);
  });

  it('gives the limit of a query value', async () => {
    const r = await t.call('GET', '/api/v1/blocks', { key: user.key, query: { limit: 500 } });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([expect.objectContaining({ path: 'limit', code: 'too_large', expected: 200 })]);
  });

  it('gives the allowed values of an enum, and the closest one', async () => {
    const r = await t.call('GET', '/api/v1/blocks', { key: user.key, query: { role: 'layouts' } });
    expect(r.body.errors).toEqual([
      expect.objectContaining({
        path: 'role',
        code: 'enum',
        expected: ['content', 'layout'],
        hint: 'did you mean `layout`?',
      }),
    ]);
  });

  it('names a missing required value inside a block', async () => {
    const r = await createPage({
      name: 'Home',
      site_id: site.id,
      blocks: [{ block_id: hero.id, placeholder_values: {} }],
    });
    expect(r.body.errors).toEqual([
      { path: 'blocks[0].placeholder_values.title', message: 'Title is required.', code: 'required' },
    ]);
  });

  it('lists the allowed sources of a slot, closest first', async () => {
    const r = await createPage({
      name: 'Home',
      site_id: site.id,
      blocks: [{ block_id: feed.id, bindings: { news: { source: 'articles.lates', params: {} } } }],
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      expect.objectContaining({
        path: 'blocks[0].bindings.news.source',
        code: 'not_allowed',
        expected: ['articles.latest', 'articles.by_rubric'],
        hint: 'did you mean `articles.latest`?',
      }),
    ]);
  });

  it('answers a guessed params key with the closest allowed key', async () => {
    const r = await createPage({
      name: 'Home',
      site_id: site.id,
      blocks: [{ block_id: feed.id, bindings: { news: { source: 'articles.latest', params: { count: 3 } } } }],
    });
    expect(r.body.errors).toEqual([
      expect.objectContaining({
        path: 'blocks[0].bindings.news.params.count',
        code: 'unknown_key',
        expected: ['filter', 'limit', 'sort'],
        hint: 'did you mean `limit`?',
      }),
    ]);
  });

  it('says not_found for a block that does not exist', async () => {
    const r = await createPage({ name: 'Home', site_id: site.id, blocks: [{ block_id: 999999 }] });
    expect(r.status).toBe(404);
    expect(r.body.errors).toEqual([expect.objectContaining({ path: 'blocks[0].block_id', code: 'not_found' })]);
  });

  it('says conflict for a taken slug', async () => {
    expect((await createPage({ name: 'A', site_id: site.id, slug: 'taken' })).status).toBe(201);
    const r = await createPage({ name: 'B', site_id: site.id, slug: 'taken' });
    expect(r.status).toBe(409);
    expect(r.body.errors).toEqual([expect.objectContaining({ path: 'slug', code: 'conflict' })]);
  });

  it('says required for missing rubric_ids, with what to send', async () => {
    const page = (await createPage({ name: 'C', site_id: site.id })).body;
    const r = await t.call('POST', `/api/v1/pages/${page.id}/publish`, { key: user.key, body: {} });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      expect.objectContaining({ path: 'rubric_ids', code: 'required', expected: expect.any(String) }),
    ]);
  });
});

describe('the error shape in the OpenAPI document', () => {
  it('is described once and every error response of every route refers to it', async () => {
    for (const prefix of ['/api/v1', '/api']) {
      const document = (await t.call('GET', `${prefix}/docs.json`)).body;
      const shape = document.components.schemas.Error;
      expect(shape.properties.errors.items).toEqual({ $ref: '#/components/schemas/FieldError' });
      expect(document.components.schemas.FieldError.properties.code.enum).toEqual(
        expect.arrayContaining(['required', 'unknown_key']),
      );
      let count = 0;
      for (const operations of Object.values<Record<string, { responses: Record<string, any> }>>(document.paths)) {
        for (const operation of Object.values(operations)) {
          for (const [status, response] of Object.entries(operation.responses)) {
            if (Number(status) < 400) continue;
            // A status with two shapes (a blocked major upgrade, MCP's JSON-RPC error) names the error body among them.
            const schema = response.content['application/json'].schema;
            expect(schema.anyOf ?? [schema]).toContainEqual({ $ref: '#/components/schemas/Error' });
            count++;
          }
        }
      }
      expect(count).toBeGreaterThan(50);
    }
  });
});
