/**
 * The event-loop guard: while the worst known user input runs, `/health`
 * still answers at once. Its own vitest project, run after all the others, so
 * that their load does not stand in for the hostile input's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

/** The bound for a `/health` answer while hostile input runs (the median: the machine is shared). */
const HEALTH_MS = 50;
/**
 * No single answer may wait this long: half the page's render budget, so a
 * loop held by the render (20 s for this template once) cannot pass.
 */
const NEVER_MS = 1000;

let t: TestApp;
let user: TestUser;
let siteId: number;
beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  siteId = (await newSite(t, user)).id;
});
afterAll(() => t.close());

/**
 * Runs `hostile` and asks `/health` one request after another until it ends.
 * Each latency is measured on the same loop as the server's: a blocked loop
 * shows as one long answer.
 */
async function healthWhile<T>(hostile: Promise<T>): Promise<{ result: T; latencies: number[] }> {
  let done = false;
  const settled = hostile.finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    const r = await fetch(`${t.url}/health`);
    await r.arrayBuffer();
    latencies.push(performance.now() - started);
    expect(r.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { result: await settled, latencies };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('/health while the worst known input runs', () => {
  it('answers while a template sorts without end in one Liquid node, which ends as 422 at blocks[1]', async () => {
    const plain = await createBlock(t, user, { name: 'Plain', template: '<p>{{ title }}</p>' });
    const hostile = await createBlock(t, user, {
      name: 'Sorter',
      // A 33-million-item range is refused before it is built now (the range cap); the
      // worst left is the largest allowed range sorted again and again in one filter
      // chain, where LiquidJS's own time check never runs: only the page budget stops it.
      template: `{% assign a = (1..100000)${' | sort'.repeat(200)} %}{{ a | size }}`,
    });
    const page = await createPage(t, user, {
      name: 'Hostile render',
      site_id: siteId,
      blocks: [{ block_id: plain.id, placeholder_values: { title: 'Hi' } }, { block_id: hostile.id }],
    });
    const { result, latencies } = await healthWhile(
      t.call('GET', `/api/v1/pages/${page.id}/preview`, { key: user.key }),
    );
    expect(result.status).toBe(422);
    expect(result.body.errors.map((e: { path: string }) => e.path)).toEqual(['blocks[1]']);
    expect(result.body.block_id).toBe(page.blocks[1].id);
    // The render ran long enough to be measured against, and health never waited for it.
    expect(latencies.length).toBeGreaterThanOrEqual(10);
    expect(median(latencies)).toBeLessThan(HEALTH_MS);
    expect(Math.max(...latencies)).toBeLessThan(NEVER_MS);
    console.log(
      `health during a hostile render: ${latencies.length} answers, median ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
    );

    // The service renders again afterwards, on a fresh thread.
    const fine = await createPage(t, user, {
      name: 'After',
      site_id: siteId,
      blocks: [{ block_id: plain.id, placeholder_values: { title: 'Still here' } }],
    });
    const after = await t.call('GET', `/api/v1/pages/${fine.id}/preview`, { key: user.key });
    expect(after.status).toBe(200);
    expect(after.text).toContain('<p>Still here</p>');
  });

  it('answers while a catastrophic pattern meets its worst input', async () => {
    const block = await createBlock(t, user, {
      name: 'Evil pattern',
      schema_content: [{ name: 'word', type: 'string', pattern: '^(a+)+$' }],
    });
    // 28 characters take a backtracking engine seconds; each more doubles it.
    const write = t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: {
        name: 'Evil value',
        site_id: siteId,
        blocks: [{ block_id: block.id, placeholder_values: { word: `${'a'.repeat(28)}!` } }],
      },
    });
    const { result, latencies } = await healthWhile(write);
    expect(result.status).toBe(400);
    // The check itself now takes microseconds: what health waits for is the write's ordinary work.
    expect(Math.max(...latencies)).toBeLessThan(NEVER_MS);
  });
});
