import fc, { type Arbitrary } from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkIntegrity } from '../../src/db/integrity.js';
import { startApp, type TestApp } from '../support/app.js';
import { admin, newKey, newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage, feedFields, heroFields } from '../support/library.js';

/**
 * Requests derived from the OpenAPI documents of both contours, valid and
 * subtly invalid, over real HTTP. Whatever arrives, the answer is never a 5xx,
 * every error is JSON with `error` (and well-formed `errors[]`), and the
 * stored data keeps its invariants. FUZZ_RUNS (default 2,000); FUZZ_SEED
 * (default 1) replays a run exactly.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
// A fixed seed by default, so that `npm test` is repeatable; CI draws a new one each run.
const SEED = Number(process.env.FUZZ_SEED ?? 1);

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
};
interface Operation {
  method: string;
  path: string;
  params: { name: string; in: string; schema: Schema; required?: boolean }[];
  body?: Schema;
}

// Routes whose side effects would end the run rather than test it: signing the
// fuzzing user out. Everything else is fair game, removals included.
const SKIP = new Set(['POST /api/auth/logout']);

// Valid integers stay within 32 bits: ids and counts are int4 on PostgreSQL.
const INT = { min: -(2 ** 31), max: 2 ** 31 - 1 };
/** Integers every schema bounds away: past 32 bits, past 2^53, and past what a double holds exactly. */
const hugeInt = fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, -(2 ** 63), 1e20, 1.5e300);
/** The same as text (query and path parameters), plus numeric forms that are not plain digits. */
const hugeIntText = fc.constantFrom(
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '99999999999999999999',
  '1e3',
  '0x10',
);

/** Any string: control characters, NUL, astral planes, half a surrogate pair alone, and the usual suspects. */
const anyString = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '__proto__',
      'constructor',
      '0',
      '-1',
      '../',
      '%00',
      '\u0000',
      '\ud800',
      'a\udfffb',
    ),
  },
);
const anyJson = fc.jsonValue({ maxDepth: 2 });

/** Values the schema accepts, with a chance at each node of something it does not. */
function fromSchema(schema: Schema | undefined, depth = 0): Arbitrary<unknown> {
  const valid = validFrom(schema ?? {}, depth);
  return fc.oneof(
    { weight: 12, arbitrary: valid },
    { weight: 1, arbitrary: anyJson },
    { weight: 1, arbitrary: anyString },
  );
}

function validFrom(schema: Schema, depth: number): Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return fc.oneof(...options.map((s) => fromSchema(s, depth)));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((type) => validFrom({ ...schema, type }, depth)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.oneof(
        {
          weight: 12,
          arbitrary: fc.integer({
            min: Math.max(schema.minimum ?? INT.min, INT.min),
            max: Math.min(schema.maximum ?? INT.max, INT.max),
          }),
        },
        { weight: 1, arbitrary: hugeInt },
        { weight: 1, arbitrary: hugeIntText },
      );
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum, max: schema.maximum });
    case 'string':
      if (schema.format === 'uri')
        return fc.constantFrom('http://127.0.0.1:9/x', 'https://example.test/', 'javascript:alert(1)', 'ftp://x');
      if (schema.format === 'email') return fc.emailAddress();
      return fc.oneof(
        fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) }),
        anyString,
      );
    case 'array':
      if (depth > 3) return fc.constant([]);
      return fc.array(fromSchema(schema.items, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'object': {
      if (depth > 3 || !schema.properties) return fc.dictionary(anyString, anyJson, { maxKeys: 3 });
      const required = new Set(schema.required ?? []);
      const fields = Object.fromEntries(
        Object.entries(schema.properties).map(([name, s]) => [name, fromSchema(s, depth + 1)]),
      );
      return fc
        .tuple(
          fc.record(fields, { requiredKeys: [...required].filter((k) => k in fields) }),
          // Sometimes a required key goes missing, sometimes an extra one comes.
          fc.option(fc.constantFrom(...(required.size ? [...required] : ['none'])), { freq: 10 }),
          fc.option(fc.tuple(anyString, anyJson), { freq: 10 }),
        )
        .map(([record, drop, extra]) => {
          const out: Record<string, unknown> = { ...record };
          if (drop) delete out[drop];
          if (extra) out[extra[0]] = extra[1];
          return out;
        });
    }
    default:
      return anyJson;
  }
}

let t: TestApp;
let owner: TestUser;
let root: TestUser;
const pools: Record<string, (string | number)[]> = {};

beforeAll(async () => {
  t = await startApp();
  root = await admin(t);
  owner = await newUser(t);
  const other = await newUser(t);
  const victim = await newUser(t);
  const site = await newSite(t, owner);
  const hero = await createBlock(t, owner, {
    name: 'Hero',
    template: '<h1>{{ title }}</h1>',
    schema_content: heroFields,
  });
  const feed = await createBlock(t, owner, {
    name: 'Feed',
    template: '<p>{{ heading }}</p>',
    schema_content: feedFields,
  });
  const folder = (await t.call('POST', '/api/v1/folders', { key: owner.key, body: { name: 'F', site_id: site.id } }))
    .body;
  const page = await createPage(t, owner, {
    name: 'P',
    site_id: site.id,
    blocks: [
      { block_id: hero.id, placeholder_values: { title: 'a' } },
      { block_id: feed.id, placeholder_values: {} },
    ],
  });
  const othersSite = await newSite(t, other);
  const spare = await newKey(t, owner.cookie, 'spare');
  const spareId = (await t.call('GET', '/api/api-keys', { cookie: owner.cookie })).body.data.find(
    (k: { prefix: string }) => spare.startsWith(k.prefix),
  ).id;
  const ids = (...list: number[]) => [...list, 0, 999_999];
  Object.assign(pools, {
    sites: ids(site.id, othersSite.id),
    blocks: ids(hero.id, feed.id),
    folders: ids(folder.id),
    pages: ids(page.id),
    pbId: ids(...page.blocks.map((b: { id: number }) => b.id)),
    layouts: ids(1),
    collections: ids(1),
    'block-submissions': ids(1),
    'api-keys': [spareId, 999_999],
    users: [victim.id, 999_999],
    tags: ids(1),
    'layout-tags': ids(1),
    'page-types': ['article', 'template', 'nope'],
    'data-sources': ['articles.latest', 'rubrics.all', 'nope'],
    'data-result-types': ['article_list', 'nope'],
  });
});
afterAll(() => t.close());

async function operations(): Promise<Operation[]> {
  const found: Operation[] = [];
  for (const prefix of ['/api/v1', '/api']) {
    const document = (await t.call('GET', `${prefix}/docs.json`)).body;
    for (const [path, methods] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        const route = `${method.toUpperCase()} ${path}`;
        if (SKIP.has(route) || found.some((o) => `${o.method} ${o.path}` === route)) continue;
        found.push({
          method: method.toUpperCase(),
          path,
          params: operation.parameters ?? [],
          body: operation.requestBody?.content?.['application/json']?.schema,
        });
      }
    }
  }
  return found;
}

/** A path parameter: mostly an id of the right kind, sometimes anything. */
function paramArb(path: string, name: string): Arbitrary<string> {
  const rest = path.replace(/^\/api\/(v1\/)?(admin\/)?/, '');
  const resource = name === 'pageId' ? 'pages' : name === 'pbId' ? 'pbId' : rest.split('/')[0]!;
  const pool = pools[resource] ?? [1, 999_999];
  return (
    fc
      .oneof(
        { weight: 8, arbitrary: fc.constantFrom(...pool) },
        { weight: 1, arbitrary: anyString },
        { weight: 1, arbitrary: fc.integer(INT) },
        { weight: 1, arbitrary: fc.oneof(hugeInt, hugeIntText) },
      )
      // A URL cannot carry half a surrogate pair (encodeURIComponent throws): a browser would send U+FFFD.
      .map((value) => encodeURIComponent(String(value).replace(/\p{Surrogate}/gu, '\ufffd')))
  );
}

function requestArb(op: Operation) {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const query = op.params.filter((p) => p.in === 'query');
  return fc.record({
    op: fc.constant(op),
    path: fc
      .tuple(...pathParams.map((p) => paramArb(op.path, p.name)))
      .map((values) => pathParams.reduce((path, p, i) => path.replace(`{${p.name}}`, values[i]!), op.path)),
    query: fc
      .tuple(...query.map((p) => fc.option(fromSchema(p.schema), { freq: 2 })))
      .map((values) =>
        Object.fromEntries(
          query.flatMap((p, i) =>
            values[i] === null ? [] : [[p.name, typeof values[i] === 'string' ? values[i] : JSON.stringify(values[i])]],
          ),
        ),
      ),
    body:
      op.method === 'GET' || op.method === 'DELETE'
        ? fc.constant(undefined)
        : fromSchema(op.body ?? { type: 'object' }),
    asAdmin: fc.boolean(),
  });
}

describe('fuzzing every route', () => {
  it(`answers ${RUNS} generated requests without a 5xx or a malformed error, and keeps the data intact`, async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThan(50);
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ops).chain(requestArb), async ({ op, path, query, body, asAdmin }) => {
        const who = asAdmin || path.startsWith('/api/admin/') ? root : owner;
        const v1 = path.startsWith('/api/v1/');
        const reply = await t.call(op.method, path, {
          ...(v1 ? { key: who.key } : { cookie: who.cookie }),
          query,
          ...(body === undefined
            ? {}
            : { rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
        });
        sent++;
        const where = `${op.method} ${path} ${JSON.stringify(query)} ${JSON.stringify(body)?.slice(0, 300)} → ${reply.status} ${reply.text.slice(0, 300)}`;
        expect(reply.status, where).toBeLessThan(500);
        if (reply.status >= 400) {
          expect(reply.headers.get('content-type') ?? '', where).toContain('application/json');
          if (path === '/api/v1/mcp' && reply.body.jsonrpc === '2.0') {
            // A JSON-RPC message the MCP SDK refuses: `error` is our sentence, and the protocol's error
            // object stands beside it.
            expect(typeof reply.body.error, where).toBe('string');
            expect(typeof reply.body.jsonrpc_error?.code, where).toBe('number');
            expect(typeof reply.body.jsonrpc_error?.message, where).toBe('string');
            return;
          }
          expect(typeof reply.body.error, where).toBe('string');
          if (reply.body.errors !== undefined) {
            expect(Array.isArray(reply.body.errors), where).toBe(true);
            for (const e of reply.body.errors) {
              expect(typeof e.path, where).toBe('string');
              expect(typeof e.message, where).toBe('string');
              expect(typeof e.code, where).toBe('string');
            }
          }
        }
        if (path === '/api/v1/mcp' && reply.status === 200 && reply.body?.result?.content) {
          // A tool's answer carries its result once, as content: never again as structuredContent.
          expect(reply.body.result.structuredContent, where).toBeUndefined();
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true, verbose: 1 },
    );
    console.info(`fuzz: ${sent} requests over ${ops.length} operations`);
    expect(await checkIntegrity(t.app.database.db)).toEqual([]);
  }, 1_800_000);
});
