import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { startApp, type TestApp } from '../support/app.js';
import { checkedFetch } from '../support/documented-responses.js';
import { newUser } from '../support/factories.js';
import { toolJson, type ToolAnswer } from '../support/mcp-answer.js';

/**
 * An agent with nothing but a key, over MCP alone: from an account with no
 * site and no block of its own to a published page. Every step is a tool;
 * no REST call is made by the agent.
 */
let t: TestApp;
let fake: FakeFourcms;
let agent: Client;

const call = async (name: string, args: Record<string, unknown> = {}) =>
  (await agent.callTool({ name, arguments: args })) as ToolAnswer;

beforeAll(async () => {
  fake = await startFakeFourcms({ token: 'empty-account-token' });
  t = await startApp();
  const user = await newUser(t);
  agent = new Client({ name: 'empty-account-agent', version: '1.0.0' });
  await agent.connect(
    new StreamableHTTPClientTransport(new URL(`${t.url}/api/v1/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${user.key}` } },
      fetch: checkedFetch(t.url),
    }),
  );
});
afterAll(async () => {
  await agent?.close();
  await t?.close();
  await fake?.close();
});

describe('an agent from an empty account to a published page, over MCP alone', () => {
  it('lists the tools each step needs', async () => {
    const names = (await agent.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['create_site', 'set_site_provider', 'check_site_provider', 'create_block']),
    );
  });

  it('creates a site, connects its CMS (told at once of a wrong token), makes a block, and publishes a page of it', async () => {
    expect(toolJson(await call('list_sites')).data).toEqual([]);
    const site = await call('create_site', { name: 'Agent news', domain: 'agent.example' });
    expect(site.isError).toBeFalsy();
    const siteId = toolJson(site).id as number;

    // A mistyped token is kept, and the check says why the CMS refused it.
    const wrong = await call('set_site_provider', { id: siteId, base_url: fake.url, token: 'typo' });
    expect(wrong.isError).toBeFalsy();
    expect(toolJson(wrong).check).toEqual({
      ok: false,
      error: 'fourcms answered 401 Unauthorized: invalid token',
    });
    expect(toolJson(await call('check_site_provider', { id: siteId }))).toMatchObject({ ok: false });
    const right = await call('set_site_provider', { id: siteId, base_url: fake.url, token: fake.token });
    expect(toolJson(right).check).toEqual({ ok: true });
    expect(toolJson(await call('check_site_provider', { id: siteId }))).toEqual({ ok: true });

    // A block whose field has no type: a 422 at the field, then the fix.
    const field = { name: 'headline', required: true, max_length: 80 };
    const refused = await call('create_block', {
      name: 'Agent headline',
      template: '<h1>{{ headline }}</h1>',
      schema_content: [field],
    });
    expect(refused.isError).toBe(true);
    expect(toolJson(refused).errors.map((e: { path: string }) => e.path)).toContain('schema_content[0].type');
    const block = await call('create_block', {
      name: 'Agent headline',
      template: '<h1>{{ headline }}</h1>',
      schema_content: [{ ...field, type: 'string' }],
    });
    expect(block.isError).toBeFalsy();
    const blockId = toolJson(block).id as number;
    const contract = await call('get_placeholder_schema', { id: blockId });
    expect(toolJson(contract).schema.required).toEqual(['headline']);

    const page = await call('create_page', {
      name: 'Agent page',
      site_id: siteId,
      kind: 'article',
      blocks: [{ block_id: blockId, placeholder_values: { headline: 'Made by an agent' } }],
    });
    expect(page.isError, JSON.stringify(page.content)).toBeFalsy();
    const pageId = toolJson(page).id as number;
    const published = await call('publish_page', { id: pageId, rubric_ids: [1] });
    expect(published.isError, JSON.stringify(published.content)).toBeFalsy();
    expect(toolJson(published).is_published).toBe(true);
    const sent = fake.documents.get(String(toolJson(published).external_id));
    expect(sent?.html).toContain('<h1>Made by an agent</h1>');
  });

  it('finds blocks in short hits, never whole templates, and reads one whole on request', async () => {
    for (const [name, args] of [
      ['search_blocks', { q: 'agent headline' }],
      ['list_blocks', { search: 'Agent headline' }],
    ] as const) {
      const found = await call(name, args);
      expect(found.isError, name).toBeFalsy();
      const hits = toolJson(found).data as Record<string, unknown>[];
      expect(hits.length, name).toBeGreaterThan(0);
      for (const hit of hits)
        expect(Object.keys(hit).sort(), name).toEqual([
          'description',
          'id',
          'kind',
          'name',
          'scope',
          'tags',
          'version',
        ]);
      expect(JSON.stringify(found), name).not.toContain('<h1>{{ headline }}</h1>');
      expect(toolJson(found).total, name).toEqual(expect.any(Number));
    }
    const hit = toolJson(await call('search_blocks', { q: 'agent headline' })).data[0];
    const whole = await call('get_block', { id: hit.id });
    expect(toolJson(whole).current_revision?.template_content, JSON.stringify(whole).slice(0, 600)).toBe(
      '<h1>{{ headline }}</h1>',
    );
  });

  it('cannot reach another user’s site through the new tools', async () => {
    const other = await newUser(t);
    const theirs = await t.call('POST', '/api/v1/sites', { key: other.key, body: { name: 'Not yours' } });
    for (const [name, args] of [
      ['set_site_provider', { id: theirs.body.id, base_url: fake.url, token: fake.token }],
      ['check_site_provider', { id: theirs.body.id }],
    ] as const) {
      const answer = await call(name, args);
      expect(answer.isError, name).toBe(true);
      expect(toolJson(answer).status, name).toBe(403);
    }
    const provider = await t.call('GET', `/api/v1/sites/${theirs.body.id}/provider`, { key: other.key });
    expect(provider.body.token_set).toBe(false);
  });
});
