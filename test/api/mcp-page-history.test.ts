import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { checkedFetch } from '../support/documented-responses.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, heroFields } from '../support/library.js';
import { toolJson, type ToolAnswer } from '../support/mcp-answer.js';

/* An agent's page history through MCP: its writes are named as MCP's, and it lists, reads, diffs and restores. */

let t: TestApp;
let user: TestUser;
let client: Client;
beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  client = new Client({ name: 'history-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.url}/api/v1/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${user.key}` } },
      fetch: checkedFetch(t.url),
    }),
  );
});
afterAll(async () => {
  await client.close();
  await t.close();
});

const tool = async (name: string, args: Record<string, unknown>) => {
  const answer = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  return { error: answer.isError === true, body: toolJson(answer) };
};

describe('page history over MCP', () => {
  it('lists, reads, diffs and restores (dry run first); the versions name MCP and the key', async () => {
    const site = await newSite(t, user);
    const hero = await createBlock(t, user, {
      name: 'Hero',
      template: '<h1>{{ title }}</h1>',
      schema_content: heroFields,
    });
    const created = await tool('create_page', {
      name: 'Agent page',
      site_id: site.id,
      blocks: [{ block_id: hero.id, placeholder_values: { title: 'First' } }],
    });
    expect(created.error).toBe(false);
    const page = created.body;
    const pb = page.blocks[0].id;
    expect(
      (await tool('update_block_values', { pageId: page.id, pbId: pb, placeholder_values: { title: 'Oops' } })).error,
    ).toBe(false);

    const list = await tool('list_page_versions', { id: page.id });
    expect(list.body.data.map((v: any) => [v.number, v.actor.via, v.actor.key_prefix])).toEqual([
      [2, 'mcp', user.key.slice(0, 11)],
      [1, 'mcp', user.key.slice(0, 11)],
    ]);
    const v1 = await tool('get_page_version', { id: page.id, number: 1 });
    expect(v1.body.blocks[0].placeholder_values).toEqual({ title: 'First' });
    const diff = await tool('diff_page_versions', { id: page.id, number: 1 });
    expect(diff.body.values).toEqual([{ path: 'blocks[0].placeholder_values.title', old: 'First', new: 'Oops' }]);

    const preview = (await client.callTool({
      name: 'preview_page_version',
      arguments: { id: page.id, number: 1 },
    })) as ToolAnswer;
    expect(preview.content.map((c) => c.type)).toEqual(['text', 'resource']);
    expect(preview.content[1]!.resource!.text).toContain('First');

    const dry = await tool('restore_page_version', { id: page.id, number: 1, dry_run: 1 });
    expect(dry.body).toMatchObject({ version: 3, blocks: [{ id: pb, placeholder_values: { title: 'First' } }] });
    expect((await tool('list_page_versions', { id: page.id })).body.total).toBe(2);
    const restored = await tool('restore_page_version', { id: page.id, number: 1 });
    expect(restored.body.version).toBe(3);
    expect((await tool('get_page', { id: page.id, with_blocks: 1 })).body.blocks[0].placeholder_values).toEqual({
      title: 'First',
    });
    const missing = await tool('restore_page_version', { id: page.id, number: 99 });
    expect(missing).toMatchObject({ error: true, body: { status: 404 } });
  });
});
