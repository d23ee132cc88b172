/**
 * A write makes stale only the kept answers it changed: the page written, and
 * the pages pinning a block whose shown fields changed. Every other kept page
 * is still served kept (counted as a hit in `/metrics`), whichever instance
 * wrote, on both databases. A write anywhere used to make every kept page
 * stale on SQLite (one write generation for the whole database), so a site
 * read while its editors worked read at the miss path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, storageOf, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

let reader: TestApp;
let second: TestApp;
let user: TestUser;

beforeAll(async () => {
  reader = await startApp({ env: { METRICS: '1' } });
  user = await newUser(reader);
  second = await startApp({ storage: storageOf(reader) });
});
afterAll(async () => {
  await second.stop();
  await reader.close();
});

/** The reader's page-read counters (its /metrics, read from the listen address). */
async function counted(): Promise<{ hit: number; miss: number; bytes: number }> {
  const text = (await reader.call('GET', '/metrics')).text;
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  return {
    hit: value(/^pageblocks_page_reads_total\{cache="hit"\} (\d+)/m),
    miss: value(/^pageblocks_page_reads_total\{cache="miss"\} (\d+)/m),
    bytes: value(/^pageblocks_page_cache\{measure="bytes"\} (\d+)/m),
  };
}

/** Reads the page through the reader; answers whether it was served kept, and the body. */
async function readKept(id: number): Promise<{ kept: boolean; body: any }> {
  const before = await counted();
  const r = await reader.call('GET', `/api/v1/pages/${id}`, { key: user.key, query: { with_blocks: 1 } });
  expect(r.status, r.text).toBe(200);
  const after = await counted();
  expect(after.hit + after.miss).toBe(before.hit + before.miss + 1);
  return { kept: after.hit === before.hit + 1, body: r.body };
}

async function fixture() {
  const site = await newSite(reader, user);
  const shared = await createBlock(reader, user, {
    name: 'Shared',
    schema_content: [{ name: 'title', type: 'string' }],
  });
  const own = await createBlock(reader, user, { name: 'Only on A', schema_content: [{ name: 't', type: 'string' }] });
  const a = await createPage(reader, user, {
    name: 'A',
    site_id: site.id,
    blocks: [{ block_id: shared.id, placeholder_values: { title: 'a' } }, { block_id: own.id }],
  });
  const b = await createPage(reader, user, {
    name: 'B',
    site_id: site.id,
    blocks: [{ block_id: shared.id, placeholder_values: { title: 'b' } }],
  });
  // Both kept: the second read of each is served kept.
  for (const page of [a, b]) {
    await readKept(page.id);
    expect((await readKept(page.id)).kept).toBe(true);
  }
  return { site, shared, own, a, b };
}

describe.each([
  ['the same instance', () => reader],
  ['a second instance', () => second],
])('a write through %s', (_name, writerOf) => {
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await writerOf().call(method, path, { key: user.key, ...(body !== undefined && { body }) });
    expect(r.status, r.text).toBeLessThan(300);
    return r.body;
  };

  it("leaves another page's kept answer served kept, and the page written read afresh", async () => {
    const { a, b } = await fixture();
    await call('PUT', `/api/v1/pages/${a.id}`, { name: 'A renamed' });
    const readB = await readKept(b.id);
    expect(readB).toMatchObject({ kept: true, body: { name: 'B' } });
    expect(await readKept(a.id)).toMatchObject({ kept: false, body: { name: 'A renamed' } });

    await call('PUT', `/api/v1/pages/${a.id}/blocks/${a.blocks[0].id}`, { placeholder_values: { title: 'a2' } });
    expect((await readKept(b.id)).kept).toBe(true);
    const readA = await readKept(a.id);
    expect(readA.kept).toBe(false);
    expect(readA.body.blocks[0].placeholder_values).toEqual({ title: 'a2' });
  });

  it('leaves kept pages kept when another page is created or deleted', async () => {
    const { site, b } = await fixture();
    const c = await call('POST', '/api/v1/pages', { name: 'C', site_id: site.id });
    expect((await readKept(b.id)).kept).toBe(true);
    await call('DELETE', `/api/v1/pages/${c.id}`);
    expect((await readKept(b.id)).kept).toBe(true);
  });

  it('makes stale only the pages pinning a block whose shown fields changed', async () => {
    const { own, shared, a, b } = await fixture();
    // A new revision of the block only A pins: A's instance is outdated now, B is untouched.
    await call('PUT', `/api/v1/blocks/${own.id}`, {
      schema_content: [
        { name: 't', type: 'string' },
        { name: 'u', type: 'string' },
      ],
    });
    expect((await readKept(b.id)).kept).toBe(true);
    const outdated = await readKept(a.id);
    expect(outdated.kept).toBe(false);
    expect(outdated.body.has_outdated_blocks).toBe(true);

    // The block both pin, renamed: both read afresh, both show the name.
    await readKept(a.id);
    await call('PUT', `/api/v1/blocks/${shared.id}`, { name: 'Shared renamed' });
    for (const page of [a, b]) {
      const read = await readKept(page.id);
      expect(read.kept).toBe(false);
      expect(read.body.blocks[0].block.name).toBe('Shared renamed');
      expect((await readKept(page.id)).kept).toBe(true);
    }
  });
});

it('shows the bytes it keeps in /metrics', async () => {
  await fixture();
  expect((await counted()).bytes).toBeGreaterThan(0);
});
