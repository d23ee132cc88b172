/**
 * Reads of the largest pages that can exist (issue 25: ten REST reads at once
 * of a 9.6 MB page held the event loop 0.6 s). A page's JSON is now at most
 * `PAGE_JSON_LIMIT_KB` (1 MiB) and its HTML at most 2 Mi characters, both
 * checked at write; here the largest of each is written, then read ten times at
 * once (`GET /pages/{id}?with_blocks=1`) and previewed ten times at once while
 * `/health` is polled. In the event-loop project: it measures latencies.
 */
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock } from '../support/library.js';

const HEALTH_MS = 50;
const AT_ONCE = 10;
const JSON_LIMIT = 1024 * 1024;
const fields = [
  { name: 'title', type: 'string' },
  { name: 'body', type: 'text' },
];
/** 2,500 paragraphs of a 193-character value: four instances make 2,000,000 characters, near the 2 Mi bound. */
const NEAR_LIMIT = '{% for i in (1..2500) %}<p>{{ title }}</p>{% endfor %}';
const PARAGRAPH = 'abcdefghijklm '.repeat(14).slice(0, 193);

let t: TestApp;
let user: TestUser;
let jsonPage: number;
let htmlPage: number;

/**
 * The largest page a write accepts, found as a client would: the 9.6 MB
 * first, then smaller by what each 422 says is too much (before the limit
 * existed, the 9.6 MB page itself was written).
 */
async function largestJsonPage(site: number, block: number): Promise<number> {
  const instance = (body: string) => ({ block_id: block, placeholder_values: { title: 't', body } });
  const body = (n: number) => ({
    name: 'Largest JSON',
    site_id: site,
    blocks: Array.from({ length: 4 }, () => instance('x'.repeat(n))),
  });
  let n = 2_400_000;
  for (;;) {
    const r = await t.call('POST', '/api/v1/pages', { key: user.key, body: body(n) });
    if (r.status === 201) return r.body.id;
    expect(r.status).toBe(422);
    n -= Math.ceil((r.body.errors[0].expected.bytes - JSON_LIMIT) / 4) + 1;
  }
}

/** The page of the most instances of NEAR_LIMIT a write accepts: five are over the bound, four are not. */
async function largestHtmlPage(site: number, block: number): Promise<number> {
  for (let count = 5; ; count--) {
    const r = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: {
        name: 'Largest HTML',
        site_id: site,
        blocks: Array.from({ length: count }, () => ({ block_id: block, placeholder_values: { title: PARAGRAPH } })),
      },
    });
    if (r.status === 201) return r.body.id;
    expect(r.status).toBe(422);
  }
}

beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  const site = await newSite(t, user);
  const text = await createBlock(t, user, { name: 'Text', template: '<p>{{ title }}</p>', schema_content: fields });
  jsonPage = await largestJsonPage(site.id, text.id);
  const long = await createBlock(t, user, { name: 'Long', template: NEAR_LIMIT, schema_content: fields });
  htmlPage = await largestHtmlPage(site.id, long.id);
});
afterAll(() => t.close());

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Enough /health answers for their median to mean something. */
const MIN_SAMPLES = 7;

/**
 * Runs `reads` while polling /health, round after round until /health has
 * answered MIN_SAMPLES times (a quiet machine reads ten pages in 80 ms, two
 * polls' time): the latencies of /health and every read's answer.
 */
async function whilePolling(reads: () => Promise<{ status: number; bytes: number }>[], samples = MIN_SAMPLES) {
  const latencies: number[] = [];
  const all: { status: number; bytes: number }[] = [];
  for (let round = 0; round < 30 && (round === 0 || latencies.length < samples); round++) {
    let done = false;
    const answers = Promise.all(reads()).finally(() => {
      done = true;
    });
    while (!done) {
      const started = performance.now();
      await (await fetch(`${t.url}/health`)).arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    all.push(...(await answers));
  }
  return { latencies, answers: all };
}

/**
 * `count` reads of `path` at once, made and read on a thread of their own: the
 * clients of a service are elsewhere, and ten bodies of 2 MB taken in by this
 * thread's fetch held the loop that answers /health here.
 */
function readsAtOnce(path: string, count: number): Promise<{ status: number; bytes: number }>[] {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    const { url, key, count } = workerData;
    const one = async () => {
      const r = await fetch(url, { headers: { authorization: 'Bearer ' + key } });
      return { status: r.status, bytes: (await r.arrayBuffer()).byteLength };
    };
    Promise.all(Array.from({ length: count }, one)).then((answers) => parentPort.postMessage(answers));`,
    { eval: true, workerData: { url: `${t.url}${path}`, key: user.key, count } },
  );
  const answers = new Promise<{ status: number; bytes: number }[]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  }).finally(() => void worker.terminate());
  return Array.from({ length: count }, (_, i) => answers.then((all) => all[i]!));
}

const read = async (path: string) => (await Promise.all(readsAtOnce(path, 1)))[0]!;

describe('reads of the largest pages', () => {
  it(`answers ${AT_ONCE} reads at once of a page at its JSON limit, /health under ${HEALTH_MS} ms`, async () => {
    const { latencies, answers } = await whilePolling(() =>
      readsAtOnce(`/api/v1/pages/${jsonPage}?with_blocks=1`, AT_ONCE),
    );
    console.log(
      `${AT_ONCE} reads of a ${answers[0]!.bytes}-byte page: /health ${latencies.length} answers, ` +
        `median ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(answers[0]!.bytes).toBeGreaterThan(JSON_LIMIT - 4096);
    expect(answers[0]!.bytes).toBeLessThan(JSON_LIMIT + 4096);
    expect(latencies.length).toBeGreaterThanOrEqual(MIN_SAMPLES);
    expect(median(latencies)).toBeLessThan(HEALTH_MS);
  }, 60_000);

  it(`answers ${AT_ONCE} previews at once of a page at its HTML bound, /health under ${HEALTH_MS} ms`, async () => {
    // One first preview: the page is rendered (and kept), as in an editor's session.
    expect((await read(`/api/v1/pages/${htmlPage}/preview`)).status).toBe(200);
    // Before previews were kept as bytes (`KeptPreviews`), ten warm previews laid out, wrapped and encoded 20 MB
    // on the main thread: /health median 88-123 ms, here and in CI.
    const { latencies, answers } = await whilePolling(() => readsAtOnce(`/api/v1/pages/${htmlPage}/preview`, AT_ONCE));
    console.log(
      `${AT_ONCE} previews of a ${answers[0]!.bytes}-byte document: /health ${latencies.length} answers, ` +
        `median ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(answers[0]!.bytes).toBeGreaterThan(2_000_000);
    expect(answers[0]!.bytes).toBeLessThan(2 * 1024 * 1024 + 4096);
    expect(latencies.length).toBeGreaterThanOrEqual(MIN_SAMPLES);
    expect(median(latencies)).toBeLessThan(HEALTH_MS);
  }, 60_000);
});
