/**
 * Hostile input (issue 11, findings 1, 5, 7, 10 and 12): each answer is the
 * documented 4xx at the exact path, never a 500 and never a stall.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { admin, newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock } from '../support/library.js';

let t: TestApp;
let user: TestUser;
let adm: TestUser;
let siteId: number;
beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  adm = await admin(t);
  siteId = (await newSite(t, user)).id;
});
afterAll(() => t.close());

const paths = (body: { errors?: { path: string }[] }) => (body.errors ?? []).map((e) => e.path);
const postBlock = (body: Record<string, unknown>) =>
  t.call('POST', '/api/v1/blocks', { key: user.key, body: { name: 'Hostile', template: '<div></div>', ...body } });
let pages = 0;
const postPage = (blocks: unknown[]) =>
  t.call('POST', '/api/v1/pages', { key: user.key, body: { name: `Hostile ${++pages}`, site_id: siteId, blocks } });

describe('field patterns run on a linear-time engine (finding 1)', () => {
  it.each([
    ['a backreference', '^(a)\\1$'],
    ['a lookahead', '^(?=a)a+$'],
    ['a lookbehind', '(?<!x)a'],
    ['a repeat past the engine limit', 'a{1001}'],
  ])('refuses %s with 422 at schema_content[i].pattern', async (_what, pattern) => {
    const r = await postBlock({
      schema_content: [
        { name: 'title', type: 'string' },
        { name: 'code', type: 'string', pattern },
      ],
    });
    expect(r.status, r.text).toBe(422);
    expect(paths(r.body)).toEqual(['schema_content[1].pattern']);
    expect(r.body.errors[0].message).toMatch(/linear-time engine/);
  });

  it('refuses such a pattern nested in an object field at its own path', async () => {
    const r = await postBlock({
      schema_content: [{ name: 'o', type: 'object', fields: [{ name: 'c', type: 'string', pattern: '(x)\\1' }] }],
    });
    expect(r.status).toBe(422);
    expect(paths(r.body)).toEqual(['schema_content[0].fields[0].pattern']);
  });

  it('still enforces an ordinary pattern, and a catastrophic one answers at once with 400', async () => {
    const block = await createBlock(t, user, {
      name: 'Codes',
      schema_content: [
        { name: 'code', type: 'string', pattern: '^[A-Z]{3}-\\d+$' },
        { name: 'word', type: 'string', pattern: '^(a+)+$' },
      ],
    });
    const ok = await postPage([{ block_id: block.id, placeholder_values: { code: 'ABC-12', word: 'aaaa' } }]);
    expect(ok.status, ok.text).toBe(201);
    // 100,000 characters: with backtracking this would run for longer than the universe has existed.
    const bad = await postPage([
      { block_id: block.id, placeholder_values: { code: 'abc', word: `${'a'.repeat(100_000)}!` } },
    ]);
    expect(bad.status).toBe(400);
    expect(paths(bad.body)).toEqual(['blocks[0].placeholder_values.code', 'blocks[0].placeholder_values.word']);
  });

  it('builds the example of a required patterned field with the same engine', async () => {
    const block = await createBlock(t, user, {
      name: 'Example',
      schema_content: [{ name: 'code', type: 'string', required: true, min_length: 3, pattern: '^[A]+$' }],
    });
    const r = await t.call('GET', `/api/v1/blocks/${block.id}/placeholder-schema`, { key: user.key });
    expect(r.status, r.text).toBe(200);
    expect(r.body.example).toEqual({ code: 'AAA' });
  });
});

/** `depth` nested object fields, the innermost a string. */
function nestedFields(depth: number): Record<string, unknown> {
  let field: Record<string, unknown> = { name: 'leaf', type: 'string' };
  for (let i = 1; i < depth; i++) field = { name: 'o', type: 'object', fields: [field] };
  return field;
}

describe('nesting is capped (finding 5)', () => {
  it('accepts fields nested 6 deep (objects and arrays) and refuses the 7th level with 422 at its path', async () => {
    expect((await postBlock({ schema_content: [nestedFields(6)] })).status).toBe(201);
    const mixed = {
      name: 'list',
      type: 'array',
      items: { type: 'object', fields: [{ name: 'inner', type: 'array', items: nestedFields(3) }] },
    };
    expect((await postBlock({ schema_content: [mixed] })).status).toBe(201);

    const r = await postBlock({ schema_content: [{ name: 'title', type: 'string' }, nestedFields(7)] });
    expect(r.status).toBe(422);
    expect(paths(r.body)).toEqual([`schema_content[1]${'.fields[0]'.repeat(6)}`]);
    const tooDeepItems = {
      ...mixed,
      items: { ...mixed.items, fields: [{ ...mixed.items.fields[0], items: nestedFields(4) }] },
    };
    const items = await postBlock({ schema_content: [tooDeepItems] });
    expect(items.status).toBe(422);
    expect(paths(items.body)).toEqual([`schema_content[0].items.fields[0].items${'.fields[0]'.repeat(3)}`]);
  });

  it.each([1_000, 1_500, 100_000])('answers a schema nested %i deep with 400, not 500', async (depth) => {
    const r = await t.call('POST', '/api/v1/blocks', {
      key: user.key,
      // Built as text: JSON.stringify itself overflows the stack on such a value.
      rawBody: `{"name":"Deep","schema_content":[${'{"name":"o","type":"object","fields":['.repeat(depth)}${']}'.repeat(depth)}]}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/nests deeper than 64 levels/);
    // The path of the first value too deep: schema_content[0] then fields[0] at each level.
    expect(paths(r.body)).toEqual([`schema_content[0]${'.fields[0]'.repeat(31)}`]);
  });

  it('answers deeply nested values in any body with 400 at their path', async () => {
    const block = await createBlock(t, user, { name: 'Free', schema_content: [] });
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    const r = await t.call('POST', '/api/v1/pages', {
      rawBody: `{"name":"Deep","site_id":${siteId},"blocks":[{"block_id":${block.id},"placeholder_values":{"a":{"b \\" [":${deep}}}}]}`,
      key: user.key,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(400);
    expect(paths(r.body)).toEqual([`blocks[0].placeholder_values.a.b \\" [${'[0]'.repeat(59)}`]);
    // Strings that look like brackets are text, not nesting.
    const text = await postPage([{ block_id: block.id, placeholder_values: { a: '['.repeat(1_000) } }]);
    expect(text.status, text.text).toBe(201);
  });
});

describe('url and image values cannot run code (finding 7)', () => {
  let block: { id: number };
  beforeAll(async () => {
    block = await createBlock(t, user, {
      name: 'Links',
      template: '<a href="{{ link }}"><img src="{{ picture }}"></a>',
      schema_content: [
        { name: 'link', type: 'url' },
        { name: 'picture', type: 'image' },
        { name: 'list', type: 'array', items: { type: 'url' } },
      ],
    });
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html,<script>alert(1)</script>',
    'java\tscript:alert(1)',
    ' javascript:alert(1)',
    'file:///etc/passwd',
  ])('refuses %j with 400 at its path', async (url) => {
    const r = await postPage([
      { block_id: block.id, placeholder_values: { link: url, picture: url, list: ['/ok', url] } },
    ]);
    expect(r.status).toBe(400);
    expect(paths(r.body)).toEqual([
      'blocks[0].placeholder_values.link',
      'blocks[0].placeholder_values.picture',
      'blocks[0].placeholder_values.list[1]',
    ]);
  });

  it('says which URLs are allowed', async () => {
    const r = await postPage([
      { block_id: block.id, placeholder_values: { link: 'javascript:x', picture: 'vbscript:x' } },
    ]);
    expect(r.body.errors.map((e: { message: string }) => e.message)).toEqual([
      'Link must be a web address (http or https), a mailto: or tel: link, or a path on the site.',
      'Picture must be a web address (http or https) or a path on the site.',
    ]);
  });

  it.each([
    'https://example.com/a?b=1#c',
    'HTTP://EXAMPLE.COM',
    '/about',
    'about/team',
    '#top',
    '?page=2',
    '//cdn.example.com/x.png',
  ])('accepts %j in both', async (url) => {
    const r = await postPage([{ block_id: block.id, placeholder_values: { link: url, picture: url, list: [url] } }]);
    expect(r.status, r.text).toBe(201);
  });

  it('accepts mailto: and tel: links, but not as images', async () => {
    for (const url of ['mailto:team@example.com', 'tel:+33123456789']) {
      expect((await postPage([{ block_id: block.id, placeholder_values: { link: url } }])).status).toBe(201);
      const image = await postPage([{ block_id: block.id, placeholder_values: { picture: url } }]);
      expect(image.status).toBe(400);
      expect(paths(image.body)).toEqual(['blocks[0].placeholder_values.picture']);
    }
  });

  it('keeps a field’s own pattern as well', async () => {
    const own = await createBlock(t, user, {
      name: 'Own',
      schema_content: [{ name: 'link', type: 'url', pattern: '^https://' }],
    });
    expect((await postPage([{ block_id: own.id, placeholder_values: { link: 'https://x.test' } }])).status).toBe(201);
    for (const link of ['http://x.test', 'javascript://https://']) {
      const r = await postPage([{ block_id: own.id, placeholder_values: { link } }]);
      expect(r.status).toBe(400);
      expect(paths(r.body)).toEqual(['blocks[0].placeholder_values.link']);
    }
  });
});

describe('names JavaScript objects already have (finding 10)', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('refuses a field named %s with 422 at its name', async (name) => {
    const r = await t.call('POST', '/api/v1/blocks', {
      key: user.key,
      // Sent as text: JSON.stringify would drop a __proto__ key built in an object literal.
      rawBody: `{"name":"Proto","schema_content":[{"name":"title","type":"string"},{"name":"${name}","type":"string","required":true},{"name":"o","type":"object","fields":[{"name":"${name}","type":"string"}]}]}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status, r.text).toBe(422);
    expect(paths(r.body)).toEqual(['schema_content[1].name', 'schema_content[2].fields[0].name']);
  });
});

describe('binding params are closed to unknown keys, whatever params_schema says (finding 12)', () => {
  it.each([
    ['says nothing of other keys', {}],
    ['allows other keys', { additionalProperties: true }],
    ['allows other keys of a type', { additionalProperties: { type: 'string' }, patternProperties: { '^x': {} } }],
  ])('a source whose params_schema %s is accepted, and an unknown param is 400 at its path', async (_what, extra) => {
    const id = `open.source.${Math.random().toString(36).slice(2, 8)}`;
    const source = await t.call('POST', '/api/admin/data-sources', {
      cookie: adm.cookie,
      body: {
        id,
        title: 'Open',
        result_type_id: 'article_list',
        params_schema: { type: 'object', properties: { limit: { type: 'integer', minimum: 1 } }, ...extra },
      },
    });
    expect(source.status, source.text).toBe(201);
    const block = await createBlock(t, user, {
      name: 'Feed',
      schema_content: [{ name: 'news', type: 'binding', allowed_sources: [id], result_type: 'article_list' }],
    });
    const ok = await postPage([{ block_id: block.id, bindings: { news: { source: id, params: { limit: 2 } } } }]);
    expect(ok.status, ok.text).toBe(201);
    const r = await postPage([
      { block_id: block.id, bindings: { news: { source: id, params: { limit: 0, xtra: 'x', other: 1 } } } },
    ]);
    expect(r.status).toBe(400);
    expect(paths(r.body).sort()).toEqual([
      'blocks[0].bindings.news.params.limit',
      'blocks[0].bindings.news.params.other',
      'blocks[0].bindings.news.params.xtra',
    ]);
  });
});
