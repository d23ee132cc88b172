import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { catalogCalls, paths, EVENT_SCHEMA, EVENT_STUB, OPEN_PARAMS, uniqueId } from '../support/catalog.js';
import { admin, newUser, type TestUser } from '../support/factories.js';
import { createBlock } from '../support/library.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

let t: TestApp;
let adm: TestUser;
let user: TestUser;
beforeAll(async () => {
  t = await startApp();
  adm = await admin(t);
  user = await newUser(t);
});
afterAll(() => t.close());

const { v1, asAdmin, newResultType, newSource } = catalogCalls(() => ({ t, adm, user }));

describe('the seeded catalog of a fresh install', () => {
  it('lists articles.latest and articles.by_rubric, both returning article_list', async () => {
    const r = await v1('/data-sources');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ limit: 50, offset: 0 });
    expect(r.body.total).toBe(r.body.data.length);
    const byId = new Map(r.body.data.map((s: { id: string }) => [s.id, s]));
    for (const id of ['articles.latest', 'articles.by_rubric']) {
      expect(byId.get(id)).toMatchObject({
        id,
        result_type_id: 'article_list',
        title: expect.any(String),
        description: expect.any(String),
      });
    }
  });

  it('gives each source a params_schema whose properties are the only allowed params', async () => {
    const latest = (await v1('/data-sources/articles.latest')).body;
    expect(latest.params_schema).toMatchObject({ type: 'object', additionalProperties: false });
    expect(Object.keys(latest.params_schema.properties).sort()).toEqual(['filter', 'limit', 'sort']);
    expect(latest.params_schema.properties.limit).toMatchObject({ type: 'integer', minimum: 1 });

    const byRubric = (await v1('/data-sources/articles.by_rubric')).body;
    expect(byRubric.params_schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['category_id'],
    });
    expect(Object.keys(byRubric.params_schema.properties)).toEqual(
      expect.arrayContaining(['category_id', 'limit', 'sort']),
    );
  });

  it('follows the discovery chain source → result_type_id → result type, whose stub is valid against its schema_json', async () => {
    const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
    for (const sourceId of ['articles.latest', 'articles.by_rubric']) {
      const source = await v1(`/data-sources/${sourceId}`);
      expect(source.status).toBe(200);
      const type = await v1(`/data-result-types/${source.body.result_type_id}`);
      expect(type.status).toBe(200);
      expect(type.body.id).toBe('article_list');
      const validate = ajv.compile(type.body.schema_json);
      expect(validate(type.body.stub), JSON.stringify(validate.errors)).toBe(true);
      expect(Array.isArray(type.body.stub) && type.body.stub.length).toBeGreaterThanOrEqual(3);
      for (const article of type.body.stub)
        expect(article).toMatchObject({
          id: expect.any(Number),
          title: expect.any(String),
          slug: expect.any(String),
          url: expect.any(String),
        });
      // The schema is not a rubber stamp: an article without a title breaks it.
      expect(validate([{ ...type.body.stub[0], title: undefined, id: 'x' }])).toBe(false);
    }
  });

  it('lists result types, page types and (empty) tag lists, paginated', async () => {
    const types = await v1('/data-result-types');
    expect(types.body.data.map((d: { id: string }) => d.id)).toContain('article_list');
    const pageTypes = await v1('/page-types');
    expect(pageTypes.status).toBe(200);
    expect(pageTypes.body.data.map((p: { kind: string }) => p.kind)).toEqual(
      expect.arrayContaining(['article', 'template', 'layout']),
    );
    for (const p of pageTypes.body.data) expect(Object.keys(p).sort()).toEqual(['kind', 'title']);
    for (const path of ['/tags', '/layout-tags']) {
      const r = await v1(path);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ data: expect.any(Array), total: r.body.data.length, limit: 50, offset: 0 });
    }
    const one = await v1('/data-sources?limit=1&offset=1');
    expect(one.body.data).toHaveLength(1);
    expect(one.body).toMatchObject({ limit: 1, offset: 1 });
    expect(one.body.total).toBeGreaterThanOrEqual(2);
  });

  it.each(['/data-sources', '/data-result-types', '/page-types', '/tags', '/layout-tags'])(
    'refuses %s?limit=500 with 400 at limit',
    async (path) => {
      const r = await v1(`${path}?limit=500`);
      expect(r.status).toBe(400);
      expect(paths(r.body)).toEqual(['limit']);
    },
  );

  it('answers 404 for an unknown id, 400 for a malformed one, 401 without a key', async () => {
    expect((await v1('/data-sources/articles.nope')).status).toBe(404);
    expect((await v1('/data-result-types/nope_list')).status).toBe(404);
    const bad = await v1('/data-sources/Bad%20Id');
    expect(bad.status).toBe(400);
    expect(paths(bad.body)).toEqual(['id']);
    expect((await t.call('GET', '/api/v1/data-sources')).status).toBe(401);
  });
});

describe('administration of result types and data sources', () => {
  it('creates, changes and deletes a result type and a source that returns it', async () => {
    const type = await newResultType();
    const readBack = await v1(`/data-result-types/${type.id}`);
    expect(readBack.body).toMatchObject({ id: type.id, title: 'Events', schema_json: EVENT_SCHEMA, stub: EVENT_STUB });

    const renamed = await asAdmin('PUT', `/admin/data-result-types/${type.id}`, { title: 'Upcoming events' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ title: 'Upcoming events', stub: EVENT_STUB });

    const source = await newSource(type.id);
    expect((await v1(`/data-sources/${source.id}`)).body).toMatchObject({
      id: source.id,
      result_type_id: type.id,
      params_schema: OPEN_PARAMS,
      description: 'Next events',
    });

    const params = { ...OPEN_PARAMS, properties: { ...OPEN_PARAMS.properties, city: { type: 'string' } } };
    const changed = await asAdmin('PUT', `/admin/data-sources/${source.id}`, {
      description: 'Events to come',
      params_schema: params,
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await v1(`/data-sources/${source.id}`)).body).toMatchObject({
      description: 'Events to come',
      params_schema: params,
      title: 'Upcoming events',
    });

    // A type that a source returns stays.
    const held = await asAdmin('DELETE', `/admin/data-result-types/${type.id}`);
    expect(held.status).toBe(409);
    expect((await v1(`/data-result-types/${type.id}`)).status).toBe(200);

    expect((await asAdmin('DELETE', `/admin/data-sources/${source.id}`)).status).toBe(204);
    expect((await v1(`/data-sources/${source.id}`)).status).toBe(404);
    expect((await asAdmin('DELETE', `/admin/data-result-types/${type.id}`)).status).toBe(204);
    expect((await v1(`/data-result-types/${type.id}`)).status).toBe(404);
    expect((await asAdmin('DELETE', `/admin/data-result-types/${type.id}`)).status).toBe(404);
  });

  it('checks a new schema_json against the stored stub, and accepts it with a matching stub', async () => {
    const type = await newResultType();
    const stricter = { ...EVENT_SCHEMA, minItems: 2 };
    const refused = await asAdmin('PUT', `/admin/data-result-types/${type.id}`, { schema_json: stricter });
    expect(refused.status).toBe(422);
    expect(paths(refused.body)).toEqual(['stub']);
    expect((await v1(`/data-result-types/${type.id}`)).body.schema_json).toEqual(EVENT_SCHEMA);

    const stub = [...EVENT_STUB, { title: 'Meetup', starts_at: '2026-04-02T19:00:00Z' }];
    const accepted = await asAdmin('PUT', `/admin/data-result-types/${type.id}`, { schema_json: stricter, stub });
    expect(accepted.status, accepted.text).toBe(200);
    expect((await v1(`/data-result-types/${type.id}`)).body).toMatchObject({ schema_json: stricter, stub });
  });

  it('refuses to delete a source that a block binding slot names, and keeps it', async () => {
    const source = await newSource('article_list');
    await createBlock(t, user, {
      name: 'Event feed',
      schema_content: [
        {
          name: 'feed',
          type: 'binding',
          allowed_sources: [source.id],
          result_type: 'article_list',
          default: { source: source.id, params: { limit: 2 } },
        },
      ],
    });
    const r = await asAdmin('DELETE', `/admin/data-sources/${source.id}`);
    expect(r.status).toBe(409);
    expect(r.body.error).toMatch(/binding/);
    expect((await v1(`/data-sources/${source.id}`)).status).toBe(200);
  });

  it('answers 404 for changing or deleting what does not exist', async () => {
    expect((await asAdmin('PUT', '/admin/data-sources/no.such', { title: 'x' })).status).toBe(404);
    expect((await asAdmin('DELETE', '/admin/data-sources/no.such')).status).toBe(404);
    expect((await asAdmin('PUT', '/admin/data-result-types/no_such', { title: 'x' })).status).toBe(404);
  });
});

describe('refused catalog writes change nothing', () => {
  it('refuses a stub that breaks schema_json with 422 under stub', async () => {
    const id = uniqueId('events');
    const stub = [{ title: 'Ok', starts_at: '2026-03-01T18:00:00Z' }, { starts_at: 'not a date' }];
    const r = await asAdmin('POST', '/admin/data-result-types', {
      id,
      title: 'Events',
      schema_json: EVENT_SCHEMA,
      stub,
    });
    expect(r.status).toBe(422);
    expect(paths(r.body).sort()).toEqual(['stub[1].starts_at', 'stub[1].title']);
    expect((await v1(`/data-result-types/${id}`)).status).toBe(404);
  });

  it('refuses a schema_json that is not a JSON Schema with 422 under schema_json', async () => {
    const id = uniqueId('broken');
    const r = await asAdmin('POST', '/admin/data-result-types', {
      id,
      title: 'Broken',
      schema_json: { type: 'list', minItems: -1 },
      stub: [],
    });
    expect(r.status).toBe(422);
    expect(paths(r.body)).toEqual(expect.arrayContaining(['schema_json.type', 'schema_json.minItems']));
    expect(paths(r.body).every((p) => p.startsWith('schema_json'))).toBe(true);
    expect((await v1(`/data-result-types/${id}`)).status).toBe(404);
  });

  it.each([
    ['Bad Id', 'a capital and a space'],
    ['1articles', 'a leading digit'],
    ['articles/latest', 'a slash'],
  ])('refuses the id %j (%s) with 400 at id', async (id) => {
    const before = (await v1('/data-sources')).body.total;
    const r = await asAdmin('POST', '/admin/data-sources', {
      id,
      title: 'X',
      result_type_id: 'article_list',
      params_schema: OPEN_PARAMS,
    });
    expect(r.status).toBe(400);
    expect(paths(r.body)).toEqual(['id']);
    const typeR = await asAdmin('POST', '/admin/data-result-types', {
      id,
      title: 'X',
      schema_json: EVENT_SCHEMA,
      stub: EVENT_STUB,
    });
    expect(typeR.status).toBe(400);
    expect(paths(typeR.body)).toEqual(['id']);
    expect((await v1('/data-sources')).body.total).toBe(before);
  });

  it('refuses an unknown result_type_id with 422 at result_type_id, on create and on change', async () => {
    const id = uniqueId('orphan.source');
    const r = await asAdmin('POST', '/admin/data-sources', {
      id,
      title: 'Orphan',
      result_type_id: 'no_such_type',
      params_schema: OPEN_PARAMS,
    });
    expect(r.status).toBe(422);
    expect(paths(r.body)).toEqual(['result_type_id']);
    expect((await v1(`/data-sources/${id}`)).status).toBe(404);

    const change = await asAdmin('PUT', '/admin/data-sources/articles.latest', { result_type_id: 'no_such_type' });
    expect(change.status).toBe(422);
    expect(paths(change.body)).toEqual(['result_type_id']);
    expect((await v1('/data-sources/articles.latest')).body.result_type_id).toBe('article_list');
  });

  it('refuses a taken id with 409 at id and keeps the original', async () => {
    const before = (await v1('/data-sources/articles.latest')).body;
    const r = await asAdmin('POST', '/admin/data-sources', {
      id: 'articles.latest',
      title: 'Impostor',
      result_type_id: 'article_list',
      params_schema: OPEN_PARAMS,
    });
    expect(r.status).toBe(409);
    expect(paths(r.body)).toEqual(['id']);
    expect((await v1('/data-sources/articles.latest')).body).toEqual(before);

    const typeBefore = (await v1('/data-result-types/article_list')).body;
    const typeR = await asAdmin('POST', '/admin/data-result-types', {
      id: 'article_list',
      title: 'Impostor',
      schema_json: EVENT_SCHEMA,
      stub: EVENT_STUB,
    });
    expect(typeR.status).toBe(409);
    expect(paths(typeR.body)).toEqual(['id']);
    expect((await v1('/data-result-types/article_list')).body).toEqual(typeBefore);
  });

  it.each([
    [{ type: 'array', additionalProperties: false, properties: {} }, 'params_schema.type'],
    [{ type: 'object', additionalProperties: false }, 'params_schema.properties'],
    [
      { type: 'object', additionalProperties: false, properties: { limit: { type: 'whole number' } } },
      'params_schema.properties.limit.type',
    ],
  ])('refuses the params_schema %j with 422 at %s', async (params_schema, path) => {
    const id = uniqueId('odd.source');
    const r = await asAdmin('POST', '/admin/data-sources', {
      id,
      title: 'Odd',
      result_type_id: 'article_list',
      params_schema,
    });
    expect(r.status).toBe(422);
    expect(paths(r.body)).toContain(path);
    expect((await v1(`/data-sources/${id}`)).status).toBe(404);
  });

  it('refuses to delete a result type that a source returns (409) and keeps both', async () => {
    const r = await asAdmin('DELETE', '/admin/data-result-types/article_list');
    expect(r.status).toBe(409);
    expect(r.body.error).toMatch(/articles\.latest/);
    expect((await v1('/data-result-types/article_list')).status).toBe(200);
    expect((await v1('/data-sources/articles.by_rubric')).body.result_type_id).toBe('article_list');
  });
});
