import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, heroFields } from '../support/library.js';

// PostgreSQL refuses NUL in text and JSON: before the central check, each of these was a 500 there.
let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
});
afterAll(() => t.close());

const paths = (body: { errors?: { path: string }[] }) => (body.errors ?? []).map((e) => e.path);

describe('a NUL character anywhere in a request', () => {
  it('is a 400 at the path of the field that holds it, in a body', async () => {
    const r = await t.call('POST', '/api/v1/blocks', {
      key: user.key,
      body: { name: 'a\u0000b', template: '<p></p>' },
    });
    expect(r.status).toBe(400);
    expect(paths(r.body)).toEqual(['name']);
  });

  it('is a 400 at a nested path, a key included', async () => {
    const site = await newSite(t, user);
    const hero = await createBlock(t, user, { name: 'Hero', schema_content: heroFields });
    const r = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: { name: 'P', site_id: site.id, blocks: [{ block_id: hero.id, placeholder_values: { title: 'x\u0000' } }] },
    });
    expect(r.status).toBe(400);
    expect(paths(r.body)).toEqual(['blocks[0].placeholder_values.title']);
    const key = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: {
        name: 'P',
        site_id: site.id,
        blocks: [{ block_id: hero.id, placeholder_values: { 'ti\u0000tle': 'x' } }],
      },
    });
    expect(key.status).toBe(400);
    expect(paths(key.body)).toEqual(['blocks[0].placeholder_values.ti\u0000tle']);
  });

  it('is a 400 in a query string or a path parameter', async () => {
    const search = await t.call('GET', '/api/v1/search/blocks', { key: user.key, query: { q: 'he\u0000ro' } });
    expect(search.status).toBe(400);
    expect(paths(search.body)).toEqual(['q']);
    const source = await t.call('GET', '/api/v1/data-sources/articles%00latest', { key: user.key });
    expect(source.status).toBe(400);
    expect(paths(source.body)).toEqual(['id']);
  });

  it('still needs a key first', async () => {
    expect((await t.call('GET', '/api/v1/search/blocks', { query: { q: '\u0000' } })).status).toBe(401);
  });
});

// PostgreSQL's jsonb refuses half a surrogate pair: before, such a value was a 500 there and stored on SQLite.
// Only a JSON body can carry one: a URL's percent-decoding turns it into U+FFFD.
describe('half of a surrogate pair alone anywhere in a request', () => {
  it('is a 400 at the path of the value or key that holds it; a whole pair is stored', async () => {
    const site = await newSite(t, user);
    const hero = await createBlock(t, user, { name: 'Hero', schema_content: heroFields });
    const page = (values: Record<string, unknown>) =>
      t.call('POST', '/api/v1/pages', {
        key: user.key,
        body: { name: 'P', site_id: site.id, blocks: [{ block_id: hero.id, placeholder_values: values }] },
      });
    for (const lone of ['\ud800', 'a\udc00b', '\udbff']) {
      const r = await page({ title: lone });
      expect(r.status).toBe(400);
      expect(paths(r.body)).toEqual(['blocks[0].placeholder_values.title']);
    }
    const key = await page({ ['ti\ud800tle']: 'x' });
    expect(key.status).toBe(400);
    expect(paths(key.body)).toEqual(['blocks[0].placeholder_values.ti\ud800tle']);
    const pair = await page({ title: 'a \ud83d\ude00 smile' });
    expect(pair.status).toBe(201);
    const read = await t.call('GET', `/api/v1/pages/${pair.body.id}?with_blocks=1`, { key: user.key });
    expect(read.body.blocks[0].placeholder_values.title).toBe('a 😀 smile');
  });
});
