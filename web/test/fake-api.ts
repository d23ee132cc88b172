/**
 * A fake service at the network boundary for component tests: routes as
 * `'METHOD /path/{param}'` → a handler returning `[status, body?, headers?]`.
 * Unknown routes answer 404, so a screen calling something unexpected fails loudly.
 */
import { createApi, type Api } from '../src/api/client';

export interface FakeRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  headers: Headers;
}
export type Reply = [status: number, body?: unknown, headers?: Record<string, string>];
export type Handler = (request: FakeRequest) => Reply | Promise<Reply>;

export interface FakeApi {
  api: Api;
  calls: FakeRequest[];
  on(route: string, handler: Handler): void;
}

export function fakeApi(routes: Record<string, Handler> = {}): FakeApi {
  const table = new Map(Object.entries(routes));
  const calls: FakeRequest[] = [];
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://app.test'), init);
    const url = new URL(request.url);
    const text = await request.text();
    for (const [route, handler] of table) {
      const [method, pattern] = route.split(' ') as [string, string];
      const params = match(pattern, url.pathname);
      if (method !== request.method || !params) continue;
      const call = {
        method,
        path: url.pathname,
        params,
        query: url.searchParams,
        headers: request.headers,
        // A multipart upload is kept as its text: the test reads the file's bytes in it.
        body:
          text && !request.headers.get('content-type')?.startsWith('multipart/') ? JSON.parse(text) : text || undefined,
      };
      calls.push(call);
      const [status, body, headers] = await handler(call);
      // A text body with its own content type (an HTML preview) goes as it is; anything else as JSON.
      const raw = typeof body === 'string' && headers?.['content-type']?.startsWith('text/');
      return new Response(body === undefined ? null : raw ? body : JSON.stringify(body), {
        status,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      });
    }
    calls.push({
      method: request.method,
      path: url.pathname,
      params: {},
      query: url.searchParams,
      body: undefined,
      headers: request.headers,
    });
    return Response.json({ error: `fake API: no route for ${request.method} ${url.pathname}` }, { status: 404 });
  };
  return {
    api: createApi(fetchImpl),
    calls,
    on: (route, handler) => void table.set(route, handler),
  };
}

function match(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const source = pattern.replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const found = new RegExp(`^${source}$`).exec(path);
  if (!found) return null;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1]!)]));
}

export const user = (
  overrides: Partial<{ id: number; email: string; is_admin: boolean; is_blocked: boolean }> = {},
) => ({
  id: 1,
  email: 'ann@example.com',
  is_admin: false,
  is_blocked: false,
  created_at: '2026-01-01T10:00:00.000Z',
  ...overrides,
});

export const page = <T>(data: T[]) => ({ data, total: data.length, limit: 200, offset: 0 });

const created = '2026-01-01T10:00:00.000Z';

/** A page as `GET /api/pages/{id}` answers it: page 5, "Home", an article on site 1 with no blocks; `overrides` over it. */
export const pageBody = (overrides: Record<string, unknown> = {}) => ({
  id: 5,
  name: 'Home',
  kind: 'article',
  site_id: 1,
  folder_id: null,
  slug: null,
  meta_title: null,
  meta_description: null,
  meta_keywords: null,
  meta_robots: null,
  is_published: false,
  has_outdated_blocks: false,
  created_at: created,
  updated_at: created,
  blocks: [],
  ...overrides,
});

/** One block instance of a page: instance 9 of block 3 ("Hero") at 1.0, up to date, without values; `overrides` over it. */
export const pageInstance = (overrides: Record<string, unknown> = {}) => ({
  id: 9,
  block: { id: 3, name: 'Hero' },
  order_index: 0,
  placeholder_values: {},
  bindings: null,
  parent_page_block_id: null,
  version: { major: 1, minor: 0 },
  update_status: 'up_to_date',
  ...overrides,
});
