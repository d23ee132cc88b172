import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newUser, type TestUser } from '../support/factories.js';
import { createBlock, feedFields, heroFields } from '../support/library.js';

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
});
afterAll(() => t.close());

const schemaOf = (id: number, query?: Record<string, string>) =>
  t.call('GET', `/api/v1/blocks/${id}/placeholder-schema`, { key: user.key, ...(query && { query }) });

describe('GET /blocks/{id}/placeholder-schema?expand=sources', () => {
  it('inlines every allowed source with its params_schema and its result type, as the chain gives them', async () => {
    const feed = await createBlock(t, user, { name: 'Feed', schema_content: feedFields });
    const r = await schemaOf(feed.id, { expand: 'sources' });
    expect(r.status).toBe(200);
    const [slot] = r.body.binding_slots;
    expect(slot.sources.map((s: { id: string }) => s.id)).toEqual(['articles.latest', 'articles.by_rubric']);
    for (const source of slot.sources) {
      const chained = (await t.call('GET', `/api/v1/data-sources/${source.id}`, { key: user.key })).body;
      const type = (await t.call('GET', `/api/v1/data-result-types/${chained.result_type_id}`, { key: user.key })).body;
      expect(source).toEqual({
        id: chained.id,
        title: chained.title,
        description: chained.description,
        params_schema: chained.params_schema,
        result_type: { id: type.id, title: type.title, schema_json: type.schema_json, stub: type.stub },
      });
    }
  });

  it('leaves the plain answer as it was', async () => {
    const feed = await createBlock(t, user, { name: 'Feed 2', schema_content: feedFields });
    const plain = await schemaOf(feed.id);
    expect(plain.body.binding_slots[0]).not.toHaveProperty('sources');
    const expanded = await schemaOf(feed.id, { expand: 'sources' });
    const { sources: _sources, ...rest } = expanded.body.binding_slots[0];
    expect(rest).toEqual(plain.body.binding_slots[0]);
    expect(expanded.body.schema).toEqual(plain.body.schema);
  });

  it('gives a static block empty slots, and refuses an unknown expansion', async () => {
    const hero = await createBlock(t, user, { name: 'Hero', schema_content: heroFields });
    expect((await schemaOf(hero.id, { expand: 'sources' })).body.binding_slots).toEqual([]);
    const bad = await schemaOf(hero.id, { expand: 'source' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      expect.objectContaining({ path: 'expand', code: 'enum', expected: ['sources'], hint: 'did you mean `sources`?' }),
    ]);
  });
});
