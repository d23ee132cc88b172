import { expect } from 'vitest';
import type { TestApp } from './app.js';
import type { TestUser } from './factories.js';

/** The field paths of an error answer. */
export const paths = (body: { errors?: { path: string }[] }) => (body.errors ?? []).map((e) => e.path);

export const EVENT_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    required: ['title', 'starts_at'],
    properties: { title: { type: 'string' }, starts_at: { type: 'string', format: 'date-time' } },
  },
};
export const EVENT_STUB = [{ title: 'Launch party', starts_at: '2026-03-01T18:00:00Z' }];
export const OPEN_PARAMS = {
  type: 'object',
  additionalProperties: false,
  properties: { limit: { type: 'integer', minimum: 1, maximum: 20 } },
};

let counter = 0;
export const uniqueId = (base: string) => `${base}_${++counter}_${Date.now().toString(36)}`;

/**
 * Catalog calls over the app, the administrator and a user that `beforeAll`
 * sets up (hence `get`, read at each call).
 */
export function catalogCalls(get: () => { t: TestApp; adm: TestUser; user: TestUser }) {
  /** The user's view of a resource, to check that a refused write changed nothing. */
  const v1 = (path: string) => get().t.call('GET', `/api/v1${path}`, { key: get().user.key });
  const asAdmin = (method: string, path: string, body?: unknown) =>
    get().t.call(method, `/api${path}`, { cookie: get().adm.cookie, body });

  async function newResultType(id = uniqueId('events')) {
    const r = await asAdmin('POST', '/admin/data-result-types', {
      id,
      title: 'Events',
      schema_json: EVENT_SCHEMA,
      stub: EVENT_STUB,
    });
    expect(r.status, r.text).toBe(201);
    return r.body as { id: string };
  }

  async function newSource(resultTypeId: string, id = uniqueId('events.upcoming')) {
    const r = await asAdmin('POST', '/admin/data-sources', {
      id,
      title: 'Upcoming events',
      description: 'Next events',
      result_type_id: resultTypeId,
      params_schema: OPEN_PARAMS,
    });
    expect(r.status, r.text).toBe(201);
    return r.body as { id: string };
  }

  return { v1, asAdmin, newResultType, newSource };
}
