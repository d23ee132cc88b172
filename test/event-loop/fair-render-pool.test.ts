/**
 * The starvation run of issue 25: user A keeps eight previews of a legal but
 * slow page in flight (two instances of a template of about 0.9 s each on a
 * quiet core, fresh values each time), while user B previews a one-line page
 * every 500 ms and publishes. B's previews and publications all succeed, at
 * most twice as slow (p95) as with A quiet; A, past its share, is told to
 * come back later (429 with Retry-After), never blamed on a block. Before,
 * B's p50 went from 5 ms to 2.6 s and B's own block was named in 422s. In the
 * event-loop project: it measures latencies, and needs the cores to itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

const SLOW_TEMPLATE = '{% for i in (1..1000) %}{% for j in (1..5000) %}{% endfor %}{% endfor %}{{ t }}';
const A_IN_FLIGHT = 8;
const B_EVERY_MS = 500;
const B_PREVIEWS = 16;
const QUIET_PREVIEWS = 20;
/** B's p95 under A's load may be this many times its quiet p95 at most (the bound). */
const SLOWDOWN = 2;
/**
 * Below this, a p95 is the machine's noise, not a wait for a thread: the bound is taken from here.
 * On two cores, A's legal render keeps one busy the whole run, so B's render, the server's main
 * thread and this test's client share the other: B waited 0 ms for a thread in a server-side trace,
 * yet its p95 was 67 ms at load 7 (quiet p95 about 10 ms). A wait for a thread, as before the fair
 * pool, is seconds (p50 2.6 s, and 422s): 100 ms still tells the two apart.
 */
const NOISE_FLOOR_MS = 50;

let t: TestApp;
let fake: FakeFourcms;
let a: TestUser;
let b: TestUser;
let aPage: { id: number; blocks: { id: number }[] };
let bPage: { id: number; blocks: { id: number }[] };
let bPublished: { id: number; blocks: { id: number }[] };

const field = [{ name: 't', type: 'string' }];

beforeAll(async () => {
  fake = await startFakeFourcms({ token: 'fake-token-fair' });
  t = await startApp({ overrides: { providerTimeoutMs: 10_000 } });
  a = await newUser(t);
  b = await newUser(t);
  const aSite = await newSite(t, a);
  const bSite = await newSite(t, b);
  const slow = await createBlock(t, a, { name: 'Slow', template: SLOW_TEMPLATE, schema_content: field });
  const line = await createBlock(t, b, { name: 'Line', template: '<p>{{ t }}</p>', schema_content: field });
  aPage = await createPage(t, a, {
    name: 'Slow page',
    site_id: aSite.id,
    blocks: [
      { block_id: slow.id, placeholder_values: { t: 'one' } },
      { block_id: slow.id, placeholder_values: { t: 'two' } },
    ],
  });
  bPage = await createPage(t, b, {
    name: 'Line page',
    site_id: bSite.id,
    blocks: [{ block_id: line.id, placeholder_values: { t: 'b' } }],
  });
  bPublished = await createPage(t, b, {
    name: 'Published line',
    kind: 'template',
    site_id: bSite.id,
    blocks: [{ block_id: line.id, placeholder_values: { t: 'first' } }],
  });
  const provider = await t.call('PUT', `/api/v1/sites/${bSite.id}/provider/fourcms`, {
    key: b.key,
    body: { base_url: fake.url, token: fake.token },
  });
  expect(provider.status).toBe(200);
  expect((await t.call('POST', `/api/v1/pages/${bPublished.id}/publish`, { key: b.key, body: {} })).status).toBe(200);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

let fresh = 0;
/** B's page with a value never rendered before: it needs a thread. */
async function previewB(): Promise<{ status: number; ms: number; text: string }> {
  const started = performance.now();
  const r = await t.call('POST', `/api/v1/pages/${bPage.id}/preview`, {
    key: b.key,
    body: { blocks: [{ id: bPage.blocks[0]!.id, placeholder_values: { t: `b-${++fresh}` } }] },
  });
  return { status: r.status, ms: performance.now() - started, text: r.text };
}

/** A changed value, then publish-update: the publication renders it on a thread. */
async function publishB(): Promise<{ status: number; text: string }> {
  const pb = bPublished.blocks[0]!.id;
  const changed = await t.call('PUT', `/api/v1/pages/${bPublished.id}/blocks/${pb}`, {
    key: b.key,
    body: { placeholder_values: { t: `published-${++fresh}` } },
  });
  expect(changed.status).toBe(200);
  const r = await t.call('POST', `/api/v1/pages/${bPublished.id}/publish-update`, { key: b.key, body: {} });
  return { status: r.status, text: r.text };
}

const quantile = (values: number[], q: number) =>
  [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor(values.length * q))]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a fair render pool', () => {
  it('keeps B’s previews and publications fast and successful while A keeps eight slow previews in flight', async () => {
    // Quiet: B alone (its template parsed on both threads first).
    for (let i = 0; i < 4; i++) expect((await previewB()).status).toBe(200);
    const quiet: number[] = [];
    for (let i = 0; i < QUIET_PREVIEWS; i++) {
      const r = await previewB();
      expect(r.status).toBe(200);
      quiet.push(r.ms);
      await sleep(50);
    }

    // A: eight previews in flight, each with fresh values, sent again as soon as one ends.
    let stop = false;
    const aStatuses: number[] = [];
    const aRefusals: { retryAfter: string | null; error: string }[] = [];
    const aBlames: string[] = [];
    const aLoop = async (lane: number) => {
      for (let n = 0; !stop; n++) {
        const r = await t.call('POST', `/api/v1/pages/${aPage.id}/preview`, {
          key: a.key,
          body: {
            blocks: aPage.blocks.map((instance, i) => ({
              id: instance.id,
              placeholder_values: { t: `a-${lane}-${n}-${i}` },
            })),
          },
        });
        aStatuses.push(r.status);
        if (r.status === 429) {
          aRefusals.push({ retryAfter: r.headers.get('retry-after'), error: r.body.error });
          // A client told to come back later waits a little: a client that never does is a flood of requests, not of renders.
          await sleep(100);
        }
        if (r.status === 422) aBlames.push(r.body.error);
      }
    };
    const lanes = Array.from({ length: A_IN_FLIGHT }, (_, lane) => aLoop(lane));
    // Let A fill what it may of the pool.
    await sleep(1500);

    const loaded: number[] = [];
    const failures: string[] = [];
    const publications: { status: number; text: string }[] = [];
    for (let i = 0; i < B_PREVIEWS; i++) {
      const started = performance.now();
      const r = await previewB();
      loaded.push(r.ms);
      if (r.status !== 200) failures.push(`${r.status} ${r.text}`);
      if (i % 6 === 5) publications.push(await publishB());
      await sleep(Math.max(0, B_EVERY_MS - (performance.now() - started)));
    }
    stop = true;
    await Promise.all(lanes);

    const figures = {
      quiet: { p50: quantile(quiet, 0.5), p95: quantile(quiet, 0.95) },
      loaded: { p50: quantile(loaded, 0.5), p95: quantile(loaded, 0.95) },
    };
    console.log(
      `B's previews, quiet p50 ${figures.quiet.p50.toFixed(1)} ms p95 ${figures.quiet.p95.toFixed(1)} ms; ` +
        `with A's ${A_IN_FLIGHT} in flight p50 ${figures.loaded.p50.toFixed(1)} ms p95 ${figures.loaded.p95.toFixed(1)} ms; ` +
        `A's answers: ${aStatuses.filter((s) => s === 200).length}×200, ${aRefusals.length}×429, ${aBlames.length}×422`,
    );
    expect(failures).toEqual([]);
    expect(publications.map((p) => p.status)).toEqual(publications.map(() => 200));
    expect(publications.length).toBeGreaterThanOrEqual(2);
    expect(figures.loaded.p95).toBeLessThanOrEqual(SLOWDOWN * Math.max(figures.quiet.p95, NOISE_FLOOR_MS));
    // A was past its share: told when to come back, in seconds.
    expect(aRefusals.length).toBeGreaterThan(0);
    for (const refusal of aRefusals) {
      expect(Number(refusal.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(refusal.error).toMatch(/share of the renderer/);
    }
    // A's own page may overrun its own budget on a loaded machine; it is never B's block that is named.
    for (const blame of aBlames) expect(blame).not.toContain(`Block ${bPage.blocks[0]!.id} `);
  }, 120_000);
});
