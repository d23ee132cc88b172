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
      const search = (viewerId: number) =>
        database.dialect.search.search(db, { terms: ['stripes'], viewerId, limit: 10, offset: 0 });
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
