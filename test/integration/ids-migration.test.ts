import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/db/dialects/sqlite.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrateBefore } from '../support/migrate-before.js';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const count = async (db: Kysely<any>, table: string) =>
  Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n);

// The rebuild that gives SQLite's tables AUTOINCREMENT, run over a database written before it.
describe.runIf(!process.env.DATABASE_URL)('migration 0008 on a database with data', () => {
  it('keeps every row, index, trigger and cascade, and ids go on from the largest', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pageblocks-ids-'));
    dirs.push(dir);
    const database = openSqlite(dir);
    const db = database.db as unknown as Kysely<any>;
    try {
      await migrateBefore(database, '0008');

      const now = new Date().toISOString();
      await sql`insert into users (id, email, password_hash, created_at) values (101, 'a@x.test', 'h', ${now}), (102, 'b@x.test', 'h', ${now})`.execute(
        db,
      );
      await sql`insert into sites (id, user_id, name, created_at, updated_at) values (101, 101, 'S', ${now}, ${now})`.execute(
        db,
      );
      await sql`insert into pages (id, owner_id, site_id, kind, name, slug, created_at, updated_at) values (101, 101, 101, 'article', 'P', 'p', ${now}, ${now})`.execute(
        db,
      );
      await sql`insert into page_search (rowid, name, slug, meta) values (101, 'P', 'p', '')`.execute(db);
      await sql`insert into blocks (id, owner_id, scope, kind, name, created_at, updated_at) values (101, 101, 'user', 'content', 'B', ${now}, ${now})`.execute(
        db,
      );
      await sql`insert into block_revisions (id, block_id, major, minor, schema_content, created_at) values (101, 101, 1, 0, '[]', ${now})`.execute(
        db,
      );
      await sql`update blocks set current_revision_id = 101 where id = 101`.execute(db);
      await sql`insert into page_blocks (id, page_id, block_id, revision_id, major, minor, schema_snapshot, placeholder_values, parent_page_block_id, order_index, created_at, updated_at)
        values (101, 101, 101, 101, 1, 0, '[]', '{}', null, 0, ${now}, ${now}), (102, 101, 101, 101, 1, 0, '[]', '{}', 101, 1, ${now}, ${now})`.execute(
        db,
      );
      const tables = ['users', 'sites', 'pages', 'page_search', 'blocks', 'block_revisions', 'page_blocks'];
      const counts = await Promise.all(tables.map((table) => count(db, table)));

      await migrateToLatest(database);

      expect(await Promise.all(tables.map((table) => count(db, table)))).toEqual(counts);
      expect((await sql`pragma foreign_key_check`.execute(db)).rows).toEqual([]);
      expect((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)).rows[0]!.foreign_keys).toBe(1);
      // The unique slug index came back with its table.
      await expect(
        sql`insert into pages (owner_id, site_id, kind, name, slug, created_at, updated_at) values (101, 101, 'article', 'Q', 'p', ${now}, ${now})`.execute(
          db,
        ),
      ).rejects.toThrow(/UNIQUE/);
      // Deleting the page cascades to its instances and its search row (trigger), and its id stays spent.
      await sql`delete from pages where id = 101`.execute(db);
      expect([await count(db, 'page_blocks'), await count(db, 'page_search')]).toEqual([0, 0]);
      const { rows } = await sql<{
        id: number;
      }>`insert into pages (owner_id, kind, name, created_at, updated_at) values (101, 'article', 'R', ${now}, ${now}) returning id`.execute(
        db,
      );
      expect(rows[0]!.id).toBe(102);
    } finally {
      await database.close();
    }
  });
});
