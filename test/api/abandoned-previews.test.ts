/**
 * A preview whose client goes away while its render waits for a thread gives
 * its place in its user's queue back at once, and its render never runs
 * (issue 25: a user's queue is their share; abandoned requests must not keep it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

/** A few hundred milliseconds of a thread, legally. */
const SLOW = '{% for i in (1..150) %}{% for j in (1..5000) %}{% endfor %}{% endfor %}{{ t }}';
const field = [{ name: 't', type: 'string' }];
/** The previews of one user that may wait at once (the pool's default). */
const WAITING = 4;

let t: TestApp;
let a: TestUser;
let b: TestUser;
let slowPage: { id: number; instance: number };
let quickPage: number;

beforeAll(async () => {
  t = await startApp();
  a = await newUser(t);
  b = await newUser(t);
  const siteA = await newSite(t, a);
  const slow = await createBlock(t, a, { name: 'Slow', template: SLOW, schema_content: field });
  const page = await createPage(t, a, {
    name: 'Slow',
    site_id: siteA.id,
    blocks: [{ block_id: slow.id, placeholder_values: { t: 'x' } }],
  });
  const [instance] = (await t.call('GET', `/api/v1/pages/${page.id}`, { key: a.key, query: { with_blocks: 1 } })).body
    .blocks;
  slowPage = { id: page.id, instance: instance.id };
  const siteB = await newSite(t, b);
  const quick = await createBlock(t, b, { name: 'Quick', template: '<p>{{ t }}</p>', schema_content: field });
  quickPage = (
    await createPage(t, b, {
      name: 'Quick',
      site_id: siteB.id,
      blocks: [{ block_id: quick.id, placeholder_values: { t: 'b' } }],
    })
  ).id;
});
afterAll(async () => {
  // The aborted fetches' sockets: whatever the client left, the server closes them now.
  t.app.http.server.closeAllConnections();
  await t.close();
});

let fresh = 0;
/** A preview of A's slow page with values never rendered before (no kept HTML), over real HTTP. */
const slowPreview = (signal?: AbortSignal) =>
  fetch(`${t.url}/api/v1/pages/${slowPage.id}/preview`, {
    method: 'POST',
    headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ blocks: [{ id: slowPage.instance, placeholder_values: { t: `v${++fresh}` } }] }),
    ...(signal && { signal }),
  });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a preview abandoned while it waits', () => {
  it("gives its place back: the user's next previews are queued, not refused, and another user is served at once", async () => {
    // Warm: the threads are up and have parsed the template.
    // On a loaded machine a render may pass LiquidJS's 1 s of a block (a 422): it held its thread all the same.
    const rendered = [200, 422];
    expect(rendered).toContain((await slowPreview()).status);
    const running = slowPreview();
    await pause(100);
    // A has one rendering: these wait (a user rendering never takes the last free thread).
    const controllers = Array.from({ length: WAITING }, () => new AbortController());
    const abandoned = controllers.map((c) => slowPreview(c.signal).catch((error: Error) => error.name));
    await pause(100);
    for (const c of controllers) c.abort();
    expect(await Promise.all(abandoned)).toEqual(Array(WAITING).fill('AbortError'));
    await pause(50);

    // Their places are free: as many again are queued, none refused with 429.
    const started = performance.now();
    const again = Array.from({ length: WAITING }, () => slowPreview());
    const other = performance.now();
    const quick = await t.call('GET', `/api/v1/pages/${quickPage}/preview`, { key: b.key });
    const quickMs = performance.now() - other;
    expect(quick.status).toBe(200);
    expect(rendered).toContain((await running).status);
    const statuses = await Promise.all(again.map(async (r) => (await r).status));
    const againMs = performance.now() - started;
    console.log(
      `after ${WAITING} abandoned previews: ${WAITING} more answered ${statuses.join(', ')} in ${againMs.toFixed(0)} ms; ` +
        `B's preview ${quickMs.toFixed(0)} ms`,
    );
    // Queued and rendered, never refused.
    expect(statuses.filter((s) => !rendered.includes(s))).toEqual([]);
    // B has nothing rendering: the free thread is theirs at once, whatever A queued.
    expect(quickMs).toBeLessThan(1000);
  }, 60_000);
});
