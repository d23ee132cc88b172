/**
 * A block changed while pages take, change and drop instances of it, at once,
 * for real and in dry runs. PostgreSQL answered the block's change 500 with a
 * deadlock: the block's row lock (FOR UPDATE) made a page write's reference
 * check wait for it, while the block's change waited for that page (its pages'
 * versions move with it). Every call answers as it would alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkIntegrity } from '../../src/db/integrity.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';
import { after } from '../support/races.js';

let t: TestApp;
let user: TestUser;
let siteId: number;

beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  siteId = (await newSite(t, user)).id;
});
afterAll(() => t.close());

const call = (method: string, path: string, body?: unknown, dry = false) =>
  t.call(method, `/api/v1${path}`, {
    key: user.key,
    ...(body === undefined ? {} : { body }),
    ...(dry && { query: { dry_run: 1 } }),
  });

const ROUNDS = 16;

describe('a block changed while pages take and drop instances of it', () => {
  it('answers every call as it would alone, never 500', async () => {
    const statuses: string[] = [];
    await Promise.all(
      Array.from({ length: ROUNDS }, async (_, round) => {
        const block = await createBlock(t, user, {
          name: `Raced ${round}`,
          schema_content: [{ name: 'title', type: 'string' }],
        });
        const instance = { block_id: block.id, placeholder_values: { title: 'x' } };
        const pages = await Promise.all(
          [0, 1].map(() => createPage(t, user, { name: 'P', site_id: siteId, blocks: [instance, instance] })),
        );
        const dry = round % 2 === 0;
        const replies = await Promise.all([
          after(() => call('PUT', `/blocks/${block.id}`, { name: `Renamed ${round}` }, dry)),
          after(() => call('DELETE', `/pages/${pages[0].id}/blocks/${pages[0].blocks[0].id}`, undefined, dry)),
          after(() => call('POST', `/pages/${pages[1].id}/blocks`, { blocks: [instance] })),
          after(() =>
            call('PUT', `/pages/${pages[1].id}/blocks/${pages[1].blocks[1].id}`, {
              placeholder_values: { title: 'y' },
            }),
          ),
          after(() => call('PUT', `/blocks/${block.id}`, { description: `changed in round ${round}` })),
        ]);
        statuses.push(replies.map((r) => r.status).join(' '));
        for (const r of replies) expect(r.status, r.text).toBeLessThan(500);
      }),
    );
    // The block's two changes: each 200, or 409 when the other moved the block first (its edit version).
    for (const s of statuses) expect(s).toMatch(/^(200|409) 204 201 200 (200|409)$/);
    expect(await checkIntegrity(t.app.database.db)).toEqual([]);
  }, 60_000);
});
