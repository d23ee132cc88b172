/**
 * Large answers of issue 25: a 51-byte template made a page of 15.7 M
 * characters; MCP's preview_page answered it with 31 MB (the HTML twice, after
 * an outline parsed on the event loop), and 32 such calls at once kept
 * `/health` from answering for 20 s while memory reached 4.9 GB. Now a page's
 * HTML has a limit (2 Mi characters, 422 at the block where it crosses), the
 * outline is parsed on a render thread, and the answer carries the HTML once,
 * up to 64 Ki characters. In the event-loop project: it measures latencies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

const HEALTH_MS = 50;
const CALLS = 32;
const USERS = 4;
/** Like the 51-byte template: 10,000 times a value of 1,570 characters, 15.7 M. */
const HUGE = '{% for i in (1..10000) %}{{ s }}{% endfor %}';
/**
 * The largest page now allowed, near its limit: four instances of 2,500 paragraphs of 200 characters,
 * 2,000,000 (four, so that no block nears LiquidJS's 1 s of its own on a loaded machine).
 */
const NEAR_LIMIT = '{% for i in (1..2500) %}<p>{{ s }}</p>{% endfor %}';
const PARAGRAPH = 'abcdefghijklm '.repeat(14).slice(0, 193);
const field = [{ name: 's', type: 'string' }];
/** What the process may grow by while the 32 calls run (it grew by 4.9 GB). */
const MEMORY_MB = 400;

let t: TestApp;
const users: { user: TestUser; pageId: number }[] = [];
let hugePage: number;
let hugeBlock: number;

beforeAll(async () => {
  t = await startApp();
  for (let i = 0; i < USERS; i++) {
    const user = await newUser(t);
    const site = await newSite(t, user);
    const block = await createBlock(t, user, { name: 'Long', template: NEAR_LIMIT, schema_content: field });
    const page = await createPage(t, user, {
      name: 'Long page',
      site_id: site.id,
      blocks: Array.from({ length: 4 }, () => ({ block_id: block.id, placeholder_values: { s: PARAGRAPH } })),
    });
    users.push({ user, pageId: page.id });
  }
  const { user } = users[0]!;
  const huge = await createBlock(t, user, {
    name: 'Huge',
    template: HUGE,
    schema_content: field,
  });
  const site = await newSite(t, user, 'Huge site');
  // Written small (10,000 characters); its draft with the value is what is previewed.
  hugePage = (
    await createPage(t, user, {
      name: 'Huge page',
      site_id: site.id,
      blocks: [{ block_id: huge.id, placeholder_values: { s: 'y' } }],
    })
  ).id;
  hugeBlock = huge.id;
});
afterAll(() => t.close());

/** One JSON-RPC tools/call to the MCP endpoint, as an agent sends it; the answer's size with it. */
async function previewByMcp(key: string, id: number) {
  const r = await fetch(`${t.url}/api/v1/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'preview_page', arguments: { id } },
    }),
  });
  const text = await r.text();
  return { status: r.status, bytes: Buffer.byteLength(text), body: JSON.parse(text) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('bounded answers', () => {
  it('refuses the 15.7 M-character page at its block: written, and previewed as a draft', async () => {
    const { user } = users[0]!;
    const big = { block_id: hugeBlock, placeholder_values: { s: 'y'.repeat(1570) } };
    const written = await t.call('PUT', `/api/v1/pages/${hugePage}`, { key: user.key, body: { blocks: [big] } });
    expect(written.status).toBe(422);
    expect(written.body.errors[0].path).toBe('blocks[0]');
    expect(written.body.error).toMatch(/over the limit of 2097152/);
    const [instance] = (await t.call('GET', `/api/v1/pages/${hugePage}`, { key: user.key, query: { with_blocks: 1 } }))
      .body.blocks;
    const r = await t.call('POST', `/api/v1/pages/${hugePage}/preview`, {
      key: user.key,
      body: { blocks: [{ id: instance.id, placeholder_values: big.placeholder_values }] },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].path).toBe('blocks[0]');
    expect(r.body.error).toMatch(/over the limit of 2097152/);
  });

  it('answers 32 MCP previews of the largest page with the outline and at most 64 Ki of HTML, /health fast', async () => {
    // One first preview each: the pages are rendered (and kept), as in an agent's session.
    for (const { user, pageId } of users)
      expect((await previewByMcp(user.key, pageId)).body.result.isError).toBeUndefined();
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    let done = false;
    const calls = Promise.all(
      Array.from({ length: CALLS }, (_, i) => {
        const { user, pageId } = users[i % USERS]!;
        return previewByMcp(user.key, pageId);
      }),
    ).finally(() => {
      done = true;
    });
    const latencies: number[] = [];
    while (!done) {
      const started = performance.now();
      const r = await fetch(`${t.url}/health`);
      await r.arrayBuffer();
      latencies.push(performance.now() - started);
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const answers = await calls;
    const grownMb = (rssPeak - rssBefore) / 1024 / 1024;
    console.log(
      `${CALLS} MCP previews of a ${NEAR_LIMIT.length}-byte template's page: /health ${latencies.length} answers, ` +
        `median ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms; ` +
        `largest answer ${Math.max(...answers.map((a) => a.bytes))} bytes; RSS +${grownMb.toFixed(0)} MB at most`,
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      const result = answer.body.result;
      expect(answer.bytes).toBeLessThan(100_000);
      expect(result.structuredContent).toBeUndefined();
      if (result.isError) {
        // Past the user's share of the render threads: told when to come back.
        expect(JSON.parse(result.content[0].text)).toMatchObject({ status: 429, retry_after: expect.any(Number) });
        continue;
      }
      // Each part once: the outline and the size in the text (never the HTML), the HTML up to the bound beside it.
      expect(result.content.map((c: { type: string }) => c.type)).toEqual(['text', 'resource']);
      const [said, html] = result.content;
      expect(said.text).toMatch(/^Outline:\n/);
      expect(said.text.split('\n').slice(1, 3)).toEqual([PARAGRAPH.trim(), PARAGRAPH.trim()]);
      const [, size] = /HTML is (\d+) characters; .* holds the first 65536\./.exec(said.text) ?? [];
      expect(Number(size)).toBeGreaterThan(2_000_000);
      expect(said.text).not.toContain('<p>');
      expect(html.resource.mimeType).toBe('text/html');
      expect(html.resource.text).toHaveLength(64 * 1024);
    }
    expect(answers.filter((a) => !a.body.result.isError).length).toBeGreaterThanOrEqual(USERS);
    expect(latencies.length).toBeGreaterThanOrEqual(5);
    expect(median(latencies)).toBeLessThan(HEALTH_MS);
    expect(grownMb).toBeLessThan(MEMORY_MB);
  }, 120_000);
});
