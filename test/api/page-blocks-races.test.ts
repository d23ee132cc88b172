import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

let t: TestApp;
let user: TestUser;
let site: { id: number };
let block: { id: number };

beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  site = await newSite(t, user);
  block = await createBlock(t, user, { name: 'Plain', schema_content: [{ name: 'title', type: 'string' }] });
});
afterAll(() => t.close());

const instance = (title: string) => ({ block_id: block.id, placeholder_values: { title } });

/** The page's order as stored, straight from the table: [order_index, id] by order_index then id. */
async function storedOrder(pageId: number): Promise<number[]> {
  const { rows } = await sql<{ order_index: number }>`
    select order_index from page_blocks where page_id = ${pageId} order by order_index, id`.execute(t.app.database.db);
  return rows.map((r) => Number(r.order_index));
}

async function ids(pageId: number): Promise<number[]> {
  const page = (await t.call('GET', `/api/v1/pages/${pageId}`, { key: user.key, query: { with_blocks: 1 } })).body;
  return page.blocks.map((b: { id: number }) => b.id);
}

const contiguous = (n: number) => Array.from({ length: n }, (_, i) => i);

// Parallel requests at one page: PostgreSQL answered 500 ("deadlock detected") and left duplicate order_index values.
describe('parallel edits of one page', () => {
  it('20 inserts at position 0 all succeed, and the order stays contiguous and unique', async () => {
    const page = await createPage(t, user, { name: 'Race', site_id: site.id, blocks: [instance('a'), instance('b')] });
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.call('POST', `/api/v1/pages/${page.id}/blocks`, {
          key: user.key,
          body: { position: 0, blocks: [instance(`new ${i}`)] },
        }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 201));
    expect(await storedOrder(page.id)).toEqual(contiguous(22));
    const titles = (
      await t.call('GET', `/api/v1/pages/${page.id}`, { key: user.key, query: { with_blocks: 1 } })
    ).body.blocks.map((b: { placeholder_values: { title: string } }) => b.placeholder_values.title);
    expect(titles.slice(20)).toEqual(['a', 'b']);
  });

  it('moves, deletes, inserts, replaces and value edits in a mix never answer 5xx nor break the order', async () => {
    const page = await createPage(t, user, {
      name: 'Mix',
      site_id: site.id,
      blocks: Array.from({ length: 12 }, (_, i) => instance(`${i}`)),
    });
    const start = await ids(page.id);
    const base = `/api/v1/pages/${page.id}/blocks`;
    const requests = start.flatMap((id, i) => [
      t.call('PUT', `${base}/${id}/move`, { key: user.key, body: { position: (i * 7) % 12 } }),
      i % 3 === 0
        ? t.call('DELETE', `${base}/${id}`, { key: user.key })
        : t.call('POST', base, { key: user.key, body: { position: i % 5, blocks: [instance(`x${i}`)] } }),
      i % 4 === 1
        ? t.call('PUT', `${base}/${id}/replace`, { key: user.key, body: instance(`r${i}`) })
        : t.call('PUT', `${base}/${id}`, { key: user.key, body: { placeholder_values: { title: `v${i}` } } }),
    ]);
    const replies = await Promise.all(requests);
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    // An instance deleted or replaced by a racing request is gone (404); a position past the
    // shrunken end is a 400 at "position". Nothing else may go wrong.
    for (const r of replies.filter((r) => r.status >= 400)) {
      expect([404, 400], r.text).toContain(r.status);
      if (r.status === 400) expect(r.body.errors).toEqual([expect.objectContaining({ path: 'position' })]);
    }
    const final = await ids(page.id);
    expect(await storedOrder(page.id)).toEqual(contiguous(final.length));
    // Every insert and delete acknowledged counts; replacements keep the count.
    const acknowledged = (status: number) => statuses.filter((s) => s === status).length;
    expect(acknowledged(201)).toBe(8);
    expect(final).toHaveLength(12 + 8 - acknowledged(204));
  });

  it('PUT /pages with blocks racing block inserts leaves one of the two orders, contiguous', async () => {
    const page = await createPage(t, user, { name: 'Put', site_id: site.id, blocks: [instance('a')] });
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2
          ? t.call('PUT', `/api/v1/pages/${page.id}`, {
              key: user.key,
              body: { blocks: [instance('p'), instance('q')] },
            })
          : t.call('POST', `/api/v1/pages/${page.id}/blocks`, {
              key: user.key,
              body: { position: 0, blocks: [instance('i')] },
            }),
      ),
    );
    expect(replies.filter((r) => r.status >= 400).map((r) => r.text)).toEqual([]);
    const final = await ids(page.id);
    expect(await storedOrder(page.id)).toEqual(contiguous(final.length));
  });

  it('the database itself refuses two instances at one place of a page', async () => {
    const page = await createPage(t, user, {
      name: 'Unique',
      site_id: site.id,
      blocks: [instance('a'), instance('b')],
    });
    await expect(
      sql`update page_blocks set order_index = 0 where page_id = ${page.id}`.execute(t.app.database.db),
    ).rejects.toThrow(/unique|duplicate/i);
  });
});
