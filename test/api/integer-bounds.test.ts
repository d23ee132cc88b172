import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { admin, newUser, type TestUser } from '../support/factories.js';

let t: TestApp;
let user: TestUser;
let root: TestUser;
beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  root = await admin(t);
});
afterAll(() => t.close());

type Parameter = { in: string; name: string; schema: Record<string, unknown> };
type Operation = { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: unknown }> } };

async function operations(prefix: string): Promise<Array<{ method: string; path: string; operation: Operation }>> {
  const document = (await t.call('GET', `${prefix}/docs.json`)).body;
  return Object.entries<Record<string, Operation>>(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

/** Every integer a request may carry, with where it sits, found by walking the schema. */
function unboundedIntegers(schema: unknown, at: string, out: string[] = []): string[] {
  if (Array.isArray(schema)) schema.forEach((s, i) => unboundedIntegers(s, `${at}[${i}]`, out));
  else if (schema && typeof schema === 'object') {
    const s = schema as Record<string, unknown>;
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (
      (types.includes('integer') || types.includes('number')) &&
      !s.enum &&
      (typeof s.maximum !== 'number' || typeof s.minimum !== 'number')
    )
      out.push(at);
    for (const [key, value] of Object.entries(s)) unboundedIntegers(value, `${at}.${key}`, out);
  }
  return out;
}

describe.each(['/api/v1', '/api'])('integers of %s', (prefix) => {
  it('every integer a request may carry has both bounds', async () => {
    const unbounded = (await operations(prefix)).flatMap(({ method, path, operation }) => [
      ...(operation.parameters ?? []).flatMap((p) => unboundedIntegers(p.schema, `${method} ${path} ${p.name}`)),
      ...Object.values(operation.requestBody?.content ?? {}).flatMap((c) =>
        unboundedIntegers(c.schema, `${method} ${path} body`),
      ),
    ]);
    expect(unbounded).toEqual([]);
  });

  it('a huge offset is a 400 at "offset" on every list endpoint, never a 500', async () => {
    const lists = (await operations(prefix)).filter(
      ({ method, path, operation }) =>
        method === 'GET' &&
        !path.startsWith(`${prefix}/docs`) &&
        (operation.parameters ?? []).some((p) => p.in === 'query' && p.name === 'offset'),
    );
    expect(lists.length).toBeGreaterThan(prefix === '/api/v1' ? 10 : 3);
    for (const { path } of lists) {
      const auth = prefix === '/api/v1' ? { key: root.key } : { cookie: root.cookie };
      const r = await t.call('GET', path.replace(/\{[^}]+\}/g, '1'), {
        ...auth,
        query: { q: 'xyz', offset: '99999999999999999999' },
      });
      expect([r.status, r.body.errors], path).toEqual([400, [expect.objectContaining({ path: 'offset' })]]);
    }
  });
});

describe('ids', () => {
  it.each(['99999999999999999999', '2147483648'])('an id of %s is a 400 at "id", not a 500', async (id) => {
    const r = await t.call('GET', `/api/v1/pages/${id}`, { key: user.key });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([expect.objectContaining({ path: 'id' })]);
  });

  it('the largest id is a plain 404', async () => {
    expect((await t.call('GET', '/api/v1/pages/2147483647', { key: user.key })).status).toBe(404);
  });

  it('a huge position or site id in a body is a 400 at its path', async () => {
    const r = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: { name: 'x', site_id: 1e20, blocks: [] },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([expect.objectContaining({ path: 'site_id' })]);
  });
});
