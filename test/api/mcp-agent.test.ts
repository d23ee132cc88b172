import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { PUBLIC_URL, startApp, type TestApp } from '../support/app.js';
import { checkedFetch } from '../support/documented-responses.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, feedFields, heroFields } from '../support/library.js';
import { toolJson, type ToolAnswer } from '../support/mcp-answer.js';

/**
 * An agent's path through the MCP server, driven by the SDK's own client over
 * stdio (`npm run mcp`, a child process talking to the service over HTTP) and
 * over Streamable HTTP (`/api/v1/mcp`). The agent makes the usual mistakes and
 * recovers from each in one retry, using only what the tool answered.
 */
let t: TestApp;
let fake: FakeFourcms;
beforeAll(async () => {
  fake = await startFakeFourcms({ token: 'mcp-token-1' });
  t = await startApp();
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

type Args = Record<string, unknown>;
interface Entry {
  path: string;
  code: string;
  expected?: unknown;
  hint?: string;
}
const json = toolJson;

async function connect(transport: 'stdio' | 'http', key: string): Promise<Client> {
  const client = new Client({ name: 'agent-test', version: '1.0.0' });
  if (transport === 'http') {
    await client.connect(
      // The SDK's own HTTP, with each answer checked against the document as the test client's are.
      new StreamableHTTPClientTransport(new URL(`${t.url}/api/v1/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
        fetch: checkedFetch(t.url),
      }),
    );
  } else {
    await client.connect(
      new StdioClientTransport({
        command: 'npm',
        args: ['run', '--silent', 'mcp'],
        env: { ...(process.env as Record<string, string>), PAGEBLOCKS_URL: t.url, PAGEBLOCKS_API_KEY: key },
        stderr: 'pipe',
      }),
    );
  }
  return client;
}

/** `blocks[0].bindings.news.params` → ['blocks', 0, 'bindings', 'news', 'params']. */
const segments = (path: string) =>
  path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));

function parentOf(args: Args, path: string): [Record<string | number, unknown>, string | number] {
  const parts = segments(path);
  let node: any = args;
  for (const part of parts.slice(0, -1)) node = node[part] ??= {};
  return [node, parts.at(-1)!];
}

const meant = (hint = '') => /did you mean `([^`]+)`/.exec(hint)?.[1];

/**
 * What an agent does with one errors[] entry, reading only its code, expected
 * and hint (and, for a missing block, the catalog it is pointed to).
 */
async function fix(args: Args, entry: Entry, call: (name: string, a: Args) => Promise<ToolAnswer>) {
  const [parent, key] = parentOf(args, entry.path);
  switch (entry.code) {
    case 'required': {
      const wrong = /^`([^`]+)` is not a field here/.exec(entry.hint ?? '')?.[1];
      if (wrong) {
        parent[key] = parent[wrong];
        delete parent[wrong];
      } else if (entry.hint?.includes('e.g.'))
        parent[key] = JSON.parse(entry.hint.split(': e.g. ')[1]!.split(': ')[1]!);
      else parent[key] = 'Welcome';
      return;
    }
    case 'type':
      expect(entry.expected).toBe('integer');
      parent[key] = Number(parent[key]);
      return;
    case 'unknown_key': {
      const to = meant(entry.hint)!;
      parent[to] = parent[key];
      delete parent[key];
      return;
    }
    case 'not_allowed':
    case 'enum':
      parent[key] = meant(entry.hint) ?? (entry.expected as unknown[])[0];
      return;
    case 'too_large':
      parent[key] = entry.expected;
      return;
    case 'conflict':
      parent[key] = `${String(parent[key])}-2`;
      return;
    case 'not_found': {
      // A replacement block, and its values redone from its contract.
      const found = await call('search_blocks', { q: 'hero' });
      parent[key] = json(found).data[0].id;
      const contract = await call('get_placeholder_schema', { id: parent[key] });
      parent.placeholder_values = json(contract).example;
      return;
    }
    default:
      throw new Error(`no fix for ${JSON.stringify(entry)}`);
  }
}

describe.each(['http', 'stdio'] as const)('an agent over %s', (transport) => {
  let user: TestUser;
  let client: Client;
  let feedId: number;
  let heroId: number;
  const call = async (name: string, args: Args): Promise<ToolAnswer> =>
    (await client.callTool({ name, arguments: args })) as ToolAnswer;

  /** The call fails as the mistake should, then succeeds after the fix the answer teaches. */
  async function mistakeThenFix(name: string, args: Args, code: string): Promise<ToolAnswer> {
    const first = await call(name, args);
    expect(first.isError, JSON.stringify(first)).toBe(true);
    const errors: Entry[] = json(first).errors;
    expect(errors.map((e) => e.code)).toEqual([code]);
    await fix(args, errors[0]!, call);
    const second = await call(name, args);
    expect(second.isError, JSON.stringify(second)).toBeFalsy();
    return second;
  }

  beforeAll(async () => {
    user = await newUser(t);
    const site = await newSite(t, user, `Site over ${transport}`);
    await t.call('PUT', `/api/v1/sites/${site.id}/provider/fourcms`, {
      key: user.key,
      body: { base_url: fake.url, token: fake.token },
    });
    heroId = (
      await createBlock(t, user, { name: 'Hero', template: '<h1>{{ title }}</h1>', schema_content: heroFields })
    ).id;
    feedId = (
      await createBlock(t, user, {
        name: 'News feed',
        template: '<ul>{% for a in news %}<li>{{ a.title }}</li>{% endfor %}</ul>',
        schema_content: feedFields,
      })
    ).id;
    client = await connect(transport, user.key);
  }, 60_000);
  afterAll(() => client.close());

  it('lists the tools with the route schemas as input schemas, and the resources', async () => {
    const { tools } = await client.listTools();
    const create = tools.find((tool) => tool.name === 'create_page')!;
    expect(create.inputSchema.required).toEqual(['name', 'site_id']);
    expect(create.description).toMatch(/get_placeholder_schema/);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['pageblocks://spec/summary', 'pageblocks://catalog/blocks']);
    const catalog = await client.readResource({ uri: 'pageblocks://catalog/blocks' });
    const blocks = JSON.parse(String((catalog.contents[0] as { text: string }).text)).blocks;
    expect(blocks.map((b: { name: string }) => b.name)).toEqual(expect.arrayContaining(['Hero', 'News feed']));
    const summary = await client.readResource({ uri: 'pageblocks://spec/summary' });
    expect(String((summary.contents[0] as { text: string }).text)).toMatch(/create_page/);
  });

  it('finds blocks, after a limit over 200', async () => {
    const listed = await mistakeThenFix('list_blocks', { limit: 500 }, 'too_large');
    expect(json(listed).limit).toBe(200);
    const sites = await call('list_sites', {});
    expect(json(sites).data).toHaveLength(1);
    const contract = await call('get_placeholder_schema', { id: feedId, expand: 'sources' });
    expect(json(contract).binding_slots[0].sources[0].params_schema.properties).toHaveProperty('limit');
  });

  it('creates pages, recovering from each usual mistake in one retry', async () => {
    const siteId = json(await call('list_sites', {})).data[0].id as number;
    const hero = () => ({ block_id: heroId, placeholder_values: { title: 'Hi' } });
    const feed = (binding: Args) => ({ block_id: feedId, bindings: { news: binding } });
    await mistakeThenFix('create_page', { title: 'Home', site_id: siteId }, 'required');
    await mistakeThenFix('create_page', { name: 'Ids', site_id: String(siteId) }, 'type');
    await mistakeThenFix(
      'create_page',
      { name: 'Missing', site_id: siteId, blocks: [{ block_id: 999999 }] },
      'not_found',
    );
    await mistakeThenFix(
      'create_page',
      { name: 'Value', site_id: siteId, blocks: [{ block_id: heroId, placeholder_values: {} }] },
      'required',
    );
    await mistakeThenFix(
      'create_page',
      { name: 'Source', site_id: siteId, blocks: [feed({ source: 'rss.feed', params: { limit: 3 } })] },
      'not_allowed',
    );
    await mistakeThenFix(
      'create_page',
      { name: 'Params', site_id: siteId, blocks: [feed({ source: 'articles.latest', params: { count: 3 } })] },
      'unknown_key',
    );
    const first = await call('create_page', { name: 'Landing', site_id: siteId, slug: 'landing', blocks: [hero()] });
    expect(first.isError).toBeFalsy();
    const page = await mistakeThenFix(
      'create_page',
      {
        name: 'Landing again',
        site_id: siteId,
        slug: 'landing',
        blocks: [hero(), feed({ source: 'articles.latest', params: { limit: 3 } })],
      },
      'conflict',
    );
    expect(json(page).slug).toBe('landing-2');
  });

  it('previews, publishes after a missing rubric_ids, and the page is at the provider', async () => {
    const pages = json(await call('list_pages', {})).data as { id: number; slug: string | null }[];
    const page = pages.find((p) => p.slug === 'landing-2')!;
    const preview = await call('preview_page', { id: page.id });
    // Each part once: the outline and the size in the text, the HTML (whole, under the bound) as a text/html resource.
    expect(preview.structuredContent).toBeUndefined();
    expect(preview.content.map((c) => c.type)).toEqual(['text', 'resource']);
    const [said, html] = preview.content;
    expect(said!.text).toMatch(/^Outline:\n# Hi[\s\S]*all in the text\/html resource of this answer\.$/);
    expect(said!.text).not.toContain('<h1>');
    expect(html!.resource).toMatchObject({ uri: `pageblocks://pages/${page.id}/preview`, mimeType: 'text/html' });
    expect(html!.resource!.text).toMatch(/<h1>Hi<\/h1>/);
    const published = await mistakeThenFix('publish_page', { id: page.id }, 'required');
    expect(json(published).is_published).toBe(true);
    const document = fake.documents.get(json(published).external_id)!;
    expect(document).toBeDefined();
    expect(JSON.stringify(document)).toContain('Hi');
    const status = await call('get_publication', { id: page.id });
    expect(json(status).external_slug).toBe('landing-2');
  });

  it('sees exactly what its key sees: another user’s page is a 404', async () => {
    const other = await newUser(t);
    const otherSite = await newSite(t, other);
    const foreign = (
      await t.call('POST', '/api/v1/pages', { key: other.key, body: { name: 'Private', site_id: otherSite.id } })
    ).body;
    const answer = await call('get_page', { id: foreign.id });
    expect(answer.isError).toBe(true);
    expect(json(answer).status).toBe(404);
  });

  it('answers an unknown tool with the closest name', async () => {
    const answer = await call('create_pages', {});
    expect(answer.isError).toBe(true);
    expect(json(answer).errors[0].hint).toBe('did you mean `create_page`?');
  });
});

describe('the HTTP endpoint', () => {
  it('needs the key, like every /api/v1 route', async () => {
    const none = await t.call('POST', '/api/v1/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(none.status).toBe(401);
    const client = new Client({ name: 'no-key', version: '1.0.0' });
    await expect(
      client.connect(
        new StreamableHTTPClientTransport(new URL(`${t.url}/api/v1/mcp`), {
          requestInit: { headers: { authorization: `Bearer pb_${'0'.repeat(64)}` } },
          fetch: checkedFetch(t.url),
        }),
      ),
    ).rejects.toThrow();
  });

  it('answers 405 to GET and DELETE (stateless: no stream, no session), and 400 to what is not JSON-RPC', async () => {
    const user = await newUser(t);
    for (const method of ['GET', 'DELETE']) {
      const r = await t.call(method, '/api/v1/mcp', { key: user.key });
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toBe('POST');
    }
    const notRpc = await t.call('POST', '/api/v1/mcp', { key: user.key, body: { method: 'tools/list' } });
    expect(notRpc.status).toBe(400);
    expect(notRpc.body.errors[0]).toMatchObject({ path: 'jsonrpc', code: 'required' });
    // JSON-RPC that the MCP server cannot take: the protocol's error, as the document declares
    // (t.call checks every answer against it; the fuzzer found this one undeclared).
    const badRpc = await t.call('POST', '/api/v1/mcp', { key: user.key, body: { jsonrpc: '2.0', '': [true, null] } });
    expect(badRpc.status).toBe(400);
    // `error` a string, as every error of the API; the protocol's error beside it.
    expect(badRpc.body).toEqual({
      error: expect.stringMatching(/^Parse error/),
      jsonrpc: '2.0',
      id: null,
      jsonrpc_error: expect.objectContaining({ code: -32700, message: badRpc.body.error }),
    });
  });

  it('answers a browser only from PUBLIC_URL or CORS_ORIGINS (DNS rebinding); clients without Origin as before', async () => {
    const user = await newUser(t);
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const from = (origin?: string) =>
      t.call('POST', '/api/v1/mcp', { key: user.key, body: list, ...(origin && { headers: { origin } }) });
    const rebound = await from('http://attacker.example');
    expect(rebound.status).toBe(403);
    expect(rebound.body.error).toMatch(/^The MCP endpoint answers browsers only from PUBLIC_URL or CORS_ORIGINS/);
    expect((await from('null')).status).toBe(403);
    expect((await from(PUBLIC_URL)).status).toBe(200);
    expect((await from()).status).toBe(200);
    expect(
      (await t.call('GET', '/api/v1/mcp', { key: user.key, headers: { origin: 'http://a.example' } })).status,
    ).toBe(403);

    const listed = await startApp({ env: { CORS_ORIGINS: 'https://editor.example' } });
    try {
      const other = await newUser(listed);
      const call = (origin: string) =>
        listed.call('POST', '/api/v1/mcp', { key: other.key, body: list, headers: { origin } });
      expect((await call('https://editor.example')).status).toBe(200);
      expect((await call('https://other.example')).status).toBe(403);
    } finally {
      await listed.close();
    }
  });

  it('is not on the cookie contour', async () => {
    const user = await newUser(t);
    const r = await t.call('POST', '/api/mcp', {
      cookie: user.cookie,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(r.status).toBe(404);
  });
});

describe('tool input schemas', () => {
  it('are the route schemas of the OpenAPI document: the same parameters and body', async () => {
    const { TOOL_ROUTES } = await import('../../src/mcp/tools.js');
    const { inputSchema } = await import('../../src/mcp/tool-request.js');
    const document = (await t.call('GET', '/api/v1/docs.json')).body;
    for (const route of TOOL_ROUTES) {
      const operation = document.paths[`/api/v1${route.path.replace(/:(\w+)/g, '{$1}')}`]?.[route.method.toLowerCase()];
      expect(operation, route.name).toBeDefined();
      // A body is a named shape of the document's components.
      const named = operation.requestBody?.content?.['application/json']?.schema;
      const body = named && document.components.schemas[named.$ref.replace('#/components/schemas/', '')];
      if (named) expect(body, route.name).toBeDefined();
      // The If-Match header is the tool's expected_version.
      const fromDocument = [
        ...(operation.parameters ?? []).map((p: { name: string }) =>
          p.name === 'if-match' ? 'expected_version' : p.name,
        ),
        ...Object.keys(body?.properties ?? {}),
      ].sort();
      expect(Object.keys(inputSchema(route).properties).sort(), route.name).toEqual(fromDocument);
      for (const [name, schema] of Object.entries(body?.properties ?? {}))
        expect(inputSchema(route).properties[name], `${route.name}.${name}`).toEqual(schema);
    }
  });
});
