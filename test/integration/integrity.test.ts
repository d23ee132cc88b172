import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkIntegrity } from '../../src/db/integrity.js';
import type { IntegrityScope } from '../../src/db/integrity-history.js';
import type { DB } from '../../src/db/schema.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage, heroFields } from '../support/library.js';

let t: TestApp;
let user: TestUser;
let page: { id: number; blocks: { id: number }[] };
let hero: { id: number };
let db: Kysely<DB>;

beforeAll(async () => {
  t = await startApp();
  db = t.app.database.db;
  user = await newUser(t);
  const site = await newSite(t, user);
  hero = await createBlock(t, user, { name: 'Hero', template: '<h1>{{ title }}</h1>', schema_content: heroFields });
  const other = await createBlock(t, user, { name: 'Other', template: '<p></p>' });
  const folder = await t.call('POST', '/api/v1/folders', { key: user.key, body: { name: 'F', site_id: site.id } });
  page = await createPage(t, user, {
    name: 'P',
    site_id: site.id,
    folder_id: folder.body.id,
    blocks: [
      { block_id: hero.id, placeholder_values: { title: 'a' } },
      { block_id: other.id, placeholder_values: {} },
      { block_id: hero.id, placeholder_values: { title: 'c' } },
    ],
  });
});
afterAll(() => t.close());

/** Runs `corrupt`, checks, and undoes it, whatever happened. */
async function violationsAfter(
  corrupt: (trx: Kysely<DB>) => Promise<unknown>,
  withoutForeignKeys = false,
  scope?: IntegrityScope,
) {
  const sqlite = t.app.database.dialect.name === 'sqlite';
  // SQLite cannot switch foreign keys inside a transaction; PostgreSQL switches them per transaction.
  if (withoutForeignKeys && sqlite) await sql`pragma foreign_keys = off`.execute(db);
  try {
    let found: Awaited<ReturnType<typeof checkIntegrity>> = [];
    await db
      .transaction()
      .execute(async (trx) => {
        if (withoutForeignKeys && !sqlite) await sql`set local session_replication_role = replica`.execute(trx);
        await corrupt(trx);
        found = await checkIntegrity(trx, scope);
        throw new Error('undo');
      })
      .catch((error: Error) => {
        if (error.message !== 'undo') throw error;
      });
    return found.map((v) => v.check);
  } finally {
    if (withoutForeignKeys && sqlite) await sql`pragma foreign_keys = on`.execute(db);
  }
}

const UNRECORDED = "each instance's latest state is the instance as it stands";

describe('the integrity check', () => {
  it('finds nothing wrong in data written through the API', async () => {
    expect(await checkIntegrity(db)).toEqual([]);
  });

  it('finds a gap in the order of a page (a duplicate the unique index refuses first)', async () => {
    const [, second, third] = page.blocks;
    await expect(
      violationsAfter((trx) =>
        trx.updateTable('page_blocks').set({ order_index: 0 }).where('id', '=', second!.id).execute(),
      ),
    ).rejects.toThrow(/unique|duplicate/i);
    expect(
      await violationsAfter((trx) =>
        trx.updateTable('page_blocks').set({ order_index: 7 }).where('id', '=', third!.id).execute(),
      ),
    ).toEqual(['page_blocks.order_index is 0..n-1 on each page']);
  });

  it('finds an instance pinned to a revision of another block, or to the wrong version', async () => {
    const [first, second] = page.blocks;
    const otherRevision = await db
      .selectFrom('page_blocks')
      .select('revision_id')
      .where('id', '=', second!.id)
      .executeTakeFirstOrThrow();
    expect(
      await violationsAfter((trx) =>
        trx.updateTable('page_blocks').set(otherRevision).where('id', '=', first!.id).execute(),
      ),
    ).toEqual([
      'page_blocks pinned to a revision of their block, same major.minor',
      // Changed behind the API's back: no version says so.
      UNRECORDED,
    ]);
    expect(
      await violationsAfter((trx) =>
        trx.updateTable('page_blocks').set({ major: 9 }).where('id', '=', first!.id).execute(),
      ),
    ).toEqual([
      'page_blocks pinned to a revision of their block, same major.minor',
      // Changed behind the API's back: no version says so.
      UNRECORDED,
    ]);
  });

  it('finds a page outside the site of its folder', async () => {
    const elsewhere = await newSite(t, user, 'Elsewhere');
    expect(
      await violationsAfter((trx) =>
        trx.updateTable('pages').set({ site_id: elsewhere.id }).where('id', '=', page.id).execute(),
      ),
    ).toEqual(['a page lies in the site of its folder']);
  });

  it('finds an orphan row that a foreign key would have refused', async () => {
    expect(
      await violationsAfter(
        (trx) =>
          trx.updateTable('page_blocks').set({ page_id: 999_999 }).where('id', '=', page.blocks[0]!.id).execute(),
        true,
      ),
    ).toEqual(expect.arrayContaining(['page_blocks.page_id references an existing pages row']));
    expect(await checkIntegrity(db)).toEqual([]);
  });

  it('finds a page whose latest version is not the page: a change no version recorded, a version missing or broken', async () => {
    const [first] = page.blocks;
    expect(
      await violationsAfter((trx) =>
        trx
          .updateTable('page_blocks')
          .set({ placeholder_values: JSON.stringify({ title: 'behind its back' }) })
          .where('id', '=', first!.id)
          .execute(),
      ),
    ).toEqual([UNRECORDED]);
    expect(
      await violationsAfter((trx) =>
        trx.updateTable('pages').set({ name: 'Renamed alone' }).where('id', '=', page.id).execute(),
      ),
    ).toEqual(["a page's latest version is the page as it stands"]);
    expect(
      await violationsAfter((trx) =>
        trx
          .updateTable('pages')
          .set((eb) => ({ version: eb('version', '+', 1) }))
          .where('id', '=', page.id)
          .execute(),
      ),
    ).toEqual(["pages.version is the number of the page's latest version"]);
    // An instance that left the page with no version saying so: the latest version still names it.
    expect(
      await violationsAfter(async (trx) => {
        await trx.deleteFrom('page_blocks').where('id', '=', page.blocks[2]!.id).execute();
      }),
    ).toEqual(["a page's latest version is the page as it stands"]);
    expect(
      await violationsAfter((trx) =>
        trx.deleteFrom('page_block_states').where('page_block_id', '=', first!.id).execute(),
      ),
    ).toEqual([
      UNRECORDED,
      "a page's latest version is the page as it stands",
      'every version names states that exist',
    ]);
  });

  it("compares only the given owners' pages with their history when asked, and every other check whole", async () => {
    const [first] = page.blocks;
    const corrupt = async (trx: Kysely<DB>) => {
      await trx.deleteFrom('page_block_states').where('page_block_id', '=', first!.id).execute();
      await trx.updateTable('page_blocks').set({ order_index: 99 }).where('id', '=', page.blocks[1]!.id).execute();
    };
    const history = [
      UNRECORDED,
      "a page's latest version is the page as it stands",
      'every version names states that exist',
    ];
    const whole = await violationsAfter(corrupt);
    expect(whole).toEqual(expect.arrayContaining(history));
    expect(await violationsAfter(corrupt, false, { owners: [user.id] })).toEqual(whole);
    const others = await violationsAfter(corrupt, false, { owners: [user.id + 1_000_000] });
    expect(others).not.toEqual(expect.arrayContaining([history[0]]));
    expect(others.filter((v) => history.includes(v))).toEqual([]);
    expect(others).toEqual(whole.filter((v) => !history.includes(v)));
    expect(others.length).toBeGreaterThan(0);
  });
});
