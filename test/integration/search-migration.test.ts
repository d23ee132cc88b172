import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { dropPostgresSchema, openPostgres, withSchemaLock } from '../../src/db/dialects/postgres.js';
import { openSqlite } from '../../src/db/dialects/sqlite.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { Database } from '../../src/db/dialects/dialect.js';
import type { BlockSearchQuery } from '../../src/db/dialects/search.js';
import { migrateBefore } from '../support/migrate-before.js';

const dirs: string[] = [];

/** The ids of a search's page, and its total. */
async function ids(database: Database, query: BlockSearchQuery) {
  const found = await database.dialect.search.search(database.db, query, [sql`blocks.id`]);
  return { ids: found.rows.map((r) => r[0] as number), total: found.total };
}
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

// Migration 0011 over a database whose block index has the shape 0002 first gave it (no visibility token).
describe.runIf(!process.env.DATABASE_URL)('migration 0011 on a database with blocks', () => {
  it('rebuilds every entry with its tags and visibility, and search counts it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pageblocks-search-'));
    dirs.push(dir);
    const database = openSqlite(dir);
    const db = database.db as unknown as Kysely<any>;
    try {
      await migrateBefore(database, '0011');
      await sql`drop trigger block_search_visibility`.execute(db);
      await sql`drop table block_search`.execute(db);
      await sql`create virtual table block_search using fts5(name, description, docs, tags, tokenize = 'unicode61 remove_diacritics 2')`.execute(
        db,
      );
      const now = new Date().toISOString();
      await sql`insert into users (id, email, password_hash, created_at) values (101, 'a@x.test', 'h', ${now})`.execute(
        db,
      );
      await sql`insert into tags (id, name, slug) values (101, 'stripes', 'stripes')`.execute(db);
      await sql`insert into blocks (id, owner_id, scope, kind, name, is_deprecated, created_at, updated_at) values
        (101, 101, 'user', 'content', 'Zebra card', 0, ${now}, ${now}),
        (102, 101, 'global', 'content', 'Zebra hero', 1, ${now}, ${now})`.execute(db);
      await sql`insert into block_tags (block_id, tag_id) values (101, 101)`.execute(db);

      await migrateToLatest(database);

      const { rows } = await sql<{
        rowid: number;
        tags: string;
        vis: string;
      }>`select rowid, tags, vis from block_search where rowid > 100 order by rowid`.execute(db);
      expect(rows).toEqual([
        { rowid: 101, tags: 'stripes', vis: 'u101' },
        { rowid: 102, tags: '', vis: 'deprecated' },
      ]);
      const search = (viewerId: number) => ids(database, { terms: ['stripes'], viewerId, limit: 10, offset: 0 });
      expect(await search(101)).toEqual({ ids: [101], total: 1 });
      expect(await search(102)).toEqual({ ids: [], total: 0 });
      // The trigger is back: an update of the block moves its token.
      await sql`update blocks set owner_id = 1 where id = 101`.execute(db);
      expect(await search(101)).toEqual({ ids: [], total: 0 });
    } finally {
      await database.close();
    }
  });
});

// Migration 0014 over a PostgreSQL database whose block vector is still a column of blocks.
describe.runIf(process.env.DATABASE_URL)('migration 0014 on a PostgreSQL database with blocks', () => {
  it('moves every entry to the search table with its tags and visibility, and keeps it current', async () => {
    const url = process.env.DATABASE_URL!;
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const database = await openPostgres({ url, schema });
    const db = database.db as unknown as Kysely<any>;
    try {
      await withSchemaLock(url, () => migrateBefore(database, '0014'));
      // The shape 0002 gave it: no search table, the vector on the block.
      await sql`drop trigger block_search_visibility on blocks`.execute(db);
      await sql`drop function block_search_visibility()`.execute(db);
      await sql`drop table block_search`.execute(db);
      await sql`alter table blocks add column search_vector tsvector not null default ''::tsvector`.execute(db);
      await sql`create index blocks_search_vector on blocks using gin (search_vector)`.execute(db);
      const now = new Date().toISOString();
      await sql`insert into users (id, email, password_hash, created_at) values (101, 'a@x.test', 'h', ${now})`.execute(
        db,
      );
      await sql`insert into tags (id, name, slug) values (101, 'stripes', 'stripes')`.execute(db);
      await sql`insert into blocks (id, owner_id, scope, kind, name, is_deprecated, created_at, updated_at) values
        (101, 101, 'user', 'content', 'Zebra card', false, ${now}, ${now}),
        (102, 101, 'global', 'content', 'Zebra hero', true, ${now}, ${now})`.execute(db);
      await sql`insert into block_tags (block_id, tag_id) values (101, 101)`.execute(db);

      await withSchemaLock(url, () => migrateToLatest(database));

      const { rows } = await sql<{
        block_id: number;
        vis: string;
      }>`select block_id, vis from block_search where block_id > 100 order by block_id`.execute(db);
      expect(rows).toEqual([
        { block_id: 101, vis: 'u101' },
        { block_id: 102, vis: 'deprecated' },
      ]);
      const { rows: columns } = await sql`select column_name from information_schema.columns
        where table_schema = ${schema} and table_name = 'blocks' and column_name = 'search_vector'`.execute(db);
      expect(columns).toEqual([]);
      const search = (terms: string[], viewerId: number) => ids(database, { terms, viewerId, limit: 10, offset: 0 });
      expect(await search(['stripes'], 101)).toEqual({ ids: [101], total: 1 });
      expect(await search(['zebra'], 101)).toEqual({ ids: [101], total: 1 });
      expect(await search(['stripes'], 102)).toEqual({ ids: [], total: 0 });
      // The trigger is there: an update of the block moves its token; a deletion takes its entry.
      await sql`update blocks set is_deprecated = false where id = 102`.execute(db);
      expect(await search(['zebra'], 102)).toEqual({ ids: [102], total: 1 });
      await sql`update blocks set owner_id = 1 where id = 101`.execute(db);
      expect(await search(['stripes'], 101)).toEqual({ ids: [], total: 0 });
      await sql`delete from blocks where id = 102`.execute(db);
      expect((await sql`select 1 from block_search where block_id = 102`.execute(db)).rows).toEqual([]);
    } finally {
      await database.close();
      await dropPostgresSchema(url, schema);
    }
  });
});
