import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage, heroFields, feedFields } from '../support/library.js';
import type { ToolAnswer } from '../support/mcp-answer.js';
import { startReceiver, until, type Receiver } from '../support/webhook-receiver.js';

/**
 * Every MCP tool answers its result once (docs/decisions.md, "MCP answers"):
 * each is called with a valid set of arguments on a prepared user, in an
 * order where one call's result feeds the next, and its JSON-RPC answer is
 * measured on the wire. A JSON answer is one text block and nothing else
 * (no `structuredContent`, which repeated it); a preview is its outline and
 * size note as text and its HTML, up to the bound, beside it, each once.
 */
let t: TestApp;
let fake: FakeFourcms;
let receiver: Receiver;
let user: TestUser;
const ids: Record<string, number> = {};
const id = (name: string): number => ids[name]!;
let delivery = '';

/** A paragraph that needs no escaping in JSON, so that sizes on the wire are the characters' own. */
const PARAGRAPH = 'abcdefghij '.repeat(9).trim();

beforeAll(async () => {
  fake = await startFakeFourcms({ token: 'once-token' });
  receiver = await startReceiver();
  t = await startApp({ env: { JOB_POLL_SECONDS: '0.5' } });
  user = await newUser(t);
  const site = await newSite(t, user, 'Once');
  ids.site = site.id;
  await t.call('PUT', `/api/v1/sites/${site.id}/provider/fourcms`, {
    key: user.key,
    body: { base_url: fake.url, token: fake.token },
  });
  ids.hero = (
    await createBlock(t, user, { name: 'Hero', template: '<h1>{{ title }}</h1>', schema_content: heroFields })
  ).id;
  ids.feed = (
    await createBlock(t, user, {
      name: 'News feed',
      template: '<ul>{% for a in news %}<li>{{ a.title }}</li>{% endfor %}</ul>',
      schema_content: feedFields,
    })
  ).id;
  // A page of 1,500 paragraphs: 157 K characters of HTML, over the 64 Ki a preview carries.
  const long = await createBlock(t, user, {
    name: 'Long',
    template: '{% for i in (1..1500) %}<p>{{ s }}</p>{% endfor %}',
    schema_content: [{ name: 's', type: 'string' }],
  });
  ids.long = (
    await createPage(t, user, {
      name: 'Long',
      site_id: site.id,
      blocks: [{ block_id: long.id, placeholder_values: { s: PARAGRAPH } }],
    })
  ).id;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await receiver?.close();
});

let rpcId = 0;
async function callTool(name: string, args: Record<string, unknown>) {
  const reply = await t.call('POST', '/api/v1/mcp', {
    key: user.key,
    headers: { accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } },
  });
  expect(reply.status, reply.text.slice(0, 300)).toBe(200);
  return { result: reply.body.result as ToolAnswer, wire: reply.text.length };
}

/** The page's instances (by REST, not a tool), in order. */
async function instances(pageId: number): Promise<number[]> {
  const r = await t.call('GET', `/api/v1/pages/${pageId}`, { key: user.key, query: { with_blocks: 1 } });
  return (r.body.blocks as { id: number }[]).map((b) => b.id);
}

const heroValues = { title: 'Welcome', items: [{ caption: 'One' }] };

/** Each tool with valid arguments, in the order they are called (a later call may use an earlier one's result). */
const CALLS: [string, () => Promise<Record<string, unknown>> | Record<string, unknown>, (json: any) => void][] = [
  ['list_sites', () => ({}), (json) => void (ids.site = json.data[0].id)],
  ['create_site', () => ({ name: 'Second' }), (json) => void (ids.site2 = json.id)],
  ['set_site_provider', () => ({ id: ids.site2, base_url: fake.url, token: fake.token }), () => {}],
  ['check_site_provider', () => ({ id: ids.site2 }), () => {}],
  ['list_blocks', () => ({}), () => {}],
  ['search_blocks', () => ({ q: 'hero' }), () => {}],
  ['list_tags', () => ({}), () => {}],
  ['get_block', () => ({ id: ids.hero }), () => {}],
  [
    'create_block',
    () => ({ name: 'Made over MCP', template: '<p>{{ t }}</p>', schema_content: [{ name: 't', type: 'string' }] }),
    (json) => void (ids.made = json.id),
  ],
  ['get_placeholder_schema', () => ({ id: ids.feed, expand: 'sources' }), () => {}],
  ['get_data_source', () => ({ id: 'articles.latest' }), () => {}],
  ['get_data_result_type', () => ({ id: 'article_list' }), () => {}],
  [
    'create_page',
    () => ({
      name: 'Once',
      site_id: ids.site,
      blocks: [
        { block_id: ids.hero, placeholder_values: heroValues },
        { block_id: ids.hero, placeholder_values: heroValues },
        { block_id: ids.feed },
      ],
    }),
    (json) => void (ids.page = json.id),
  ],
  ['list_pages', () => ({}), () => {}],
  ['get_page', () => ({ id: ids.page, with_blocks: 1 }), () => {}],
  ['update_page', () => ({ id: ids.page, name: 'Once, renamed' }), () => {}],
  [
    'add_blocks',
    () => ({ pageId: ids.page, blocks: [{ block_id: ids.made, placeholder_values: { t: 'x' } }] }),
    () => {},
  ],
  [
    'update_block_values',
    async () => ({ pageId: ids.page, pbId: (await instances(id('page')))[0], placeholder_values: { title: 'New' } }),
    () => {},
  ],
  ['move_block', async () => ({ pageId: ids.page, pbId: (await instances(id('page')))[0], position: 1 }), () => {}],
  // A minor change: the page's two heroes fall behind, for the upgrades below.
  [
    'update_block',
    () => ({ id: ids.hero, schema_content: [...heroFields, { name: 'subtitle', type: 'string' }] }),
    () => {},
  ],
  ['block_usages', () => ({ id: ids.hero }), () => {}],
  ['get_upgrade_plan', () => ({ id: ids.hero, limit: 5 }), () => {}],
  // Made and undone at once: the page's heroes are behind again for the upgrades below.
  ['upgrade_block_everywhere', () => ({ id: ids.hero }), (json) => void (ids.set = json.id)],
  ['revert_upgrade_set', () => ({ id: ids.set }), () => {}],
  ['upgrade_block', async () => ({ pageId: ids.page, pbId: (await instances(id('page')))[0] }), () => {}],
  [
    'migrate_block',
    async () => ({ pageId: ids.page, pbId: (await instances(id('page')))[1], dry_run: 1 }),
    (json) => expect(json.to).toEqual({ major: 1, minor: 1 }),
  ],
  ['upgrade_all_blocks', () => ({ pageId: ids.page }), () => {}],
  [
    'replace_block',
    async () => ({
      pageId: ids.page,
      pbId: (await instances(id('page')))[1],
      block_id: ids.hero,
      placeholder_values: { title: 'Replaced' },
    }),
    () => {},
  ],
  ['remove_block', async () => ({ pageId: ids.page, pbId: (await instances(id('page'))).at(-1) }), () => {}],
  ['preview_page', () => ({ id: ids.long }), () => {}],
  ['list_page_versions', () => ({ id: ids.page }), () => {}],
  ['get_page_version', () => ({ id: ids.page, number: 1 }), () => {}],
  ['diff_page_versions', () => ({ id: ids.page, number: 1 }), () => {}],
  ['preview_page_version', () => ({ id: ids.page, number: 1 }), () => {}],
  ['restore_page_version', () => ({ id: ids.page, number: 1, dry_run: 1 }), () => {}],
  ['publish_page', () => ({ id: ids.page, rubric_ids: [1] }), () => {}],
  ['publish_update', () => ({ id: ids.page }), () => {}],
  ['get_publication', () => ({ id: ids.page }), () => {}],
  [
    'schedule_publication',
    () => ({ id: ids.page, publish_at: new Date(Date.now() + 3_600_000).toISOString(), meta_title: 'Later' }),
    () => {},
  ],
  ['unschedule_publication', () => ({ id: ids.page }), () => {}],
  ['list_webhooks', () => ({}), () => {}],
  [
    'create_webhook',
    () => ({ url: receiver.url('/once'), events: ['page.updated'] }),
    (json) => void (ids.webhook = json.id),
  ],
  ['get_webhook', () => ({ id: ids.webhook }), () => {}],
  ['update_webhook', () => ({ id: ids.webhook, events: ['page.updated', 'page.published'] }), () => {}],
  ['rotate_webhook_secret', () => ({ id: ids.webhook }), () => {}],
  ['test_webhook', () => ({ id: ids.webhook }), (json) => void (delivery = json.id)],
  ['list_webhook_deliveries', () => ({ id: ids.webhook }), () => {}],
  [
    'redeliver_webhook_delivery',
    // Once the test was delivered: a pending delivery cannot be sent again.
    async () => {
      await until(
        () => t.call('GET', `/api/v1/webhooks/${ids.webhook}/deliveries`, { key: user.key }),
        (r) => r.body.data[0]?.state === 'delivered',
      );
      return { id: ids.webhook, did: delivery };
    },
    () => {},
  ],
  ['delete_webhook', () => ({ id: ids.webhook }), () => {}],
];

/** What the answer holds beyond its content's own text: a second copy of the result would be here. */
const ENVELOPE = 300;

describe('every MCP tool', () => {
  it('is called here, so that a new tool is checked too', async () => {
    const reply = await t.call('POST', '/api/v1/mcp', {
      key: user.key,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: ++rpcId, method: 'tools/list' },
    });
    const names = (reply.body.result.tools as { name: string }[]).map((tool) => tool.name);
    expect(names.sort()).toEqual(CALLS.map(([name]) => name).sort());
  });

  // A preview answers its outline and its HTML: the test below.
  it.each(CALLS.filter(([name]) => !name.startsWith('preview_page')))(
    'answers %s with its result once, as one text block',
    async (name, args, keep) => {
      const { result, wire } = await callTool(name, await args());
      const said = result.content.map((c) => c.text ?? '').join('');
      expect(result.isError, said.slice(0, 400)).toBeFalsy();
      if (result.structuredContent !== undefined)
        expect(said, 'the text repeats structuredContent').not.toBe(JSON.stringify(result.structuredContent));
      expect(result.content.map((c) => c.type)).toEqual(['text']);
      expect(wire - JSON.stringify(said).length, 'characters beyond the one text block').toBeLessThan(ENVELOPE);
      keep(JSON.parse(said));
    },
  );

  it('answers preview_page with the outline and the size once, and the HTML once up to its bound', async () => {
    const { result, wire } = await callTool('preview_page', { id: ids.long });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toBeUndefined();
    const [said, html] = result.content;
    expect(result.content.map((c) => c.type)).toEqual(['text', 'resource']);
    // The outline (cut at 4,000 characters), the size, and where the rest is: never the HTML.
    expect(said!.text!.split('\n').filter((line) => line === PARAGRAPH).length).toBeGreaterThan(30);
    expect(said!.text).toMatch(/HTML is \d{6} characters; .* holds the first 65536\./);
    expect(said!.text).not.toContain('<p>');
    expect(html!.resource).toMatchObject({ uri: `pageblocks://pages/${id('long')}/preview`, mimeType: 'text/html' });
    expect(html!.resource!.text).toHaveLength(64 * 1024);
    // On the wire: the text and the HTML once each (a newline is two characters in JSON), and an envelope.
    const newlines = said!.text!.split('\n').length;
    expect(wire).toBeLessThan(said!.text!.length + newlines + 64 * 1024 + ENVELOPE);
  });

  it('answers preview_page_version the same way: the outline as text, the HTML once beside it', async () => {
    const { result, wire } = await callTool('preview_page_version', { id: ids.page, number: 1 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toBeUndefined();
    expect(result.content.map((c) => c.type)).toEqual(['text', 'resource']);
    const [said, html] = result.content;
    expect(said!.text).not.toContain('<h1>');
    expect(html!.resource!.text).toContain('<h1>');
    const newlines = said!.text!.split('\n').length;
    expect(wire).toBeLessThan(said!.text!.length + newlines + JSON.stringify(html!.resource!.text).length + ENVELOPE);
  });

  it('answers a refusal once too: its error body as one text block', async () => {
    const { result, wire } = await callTool('get_page', { id: 999_999 });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result.content.map((c) => c.type)).toEqual(['text']);
    expect(JSON.parse(result.content[0]!.text!)).toMatchObject({ status: 404, error: expect.any(String) });
    expect(wire - JSON.stringify(result.content[0]!.text).length).toBeLessThan(ENVELOPE);
  });
});
