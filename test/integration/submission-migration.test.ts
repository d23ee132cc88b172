import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { checkIntegrity } from '../../src/db/integrity.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrateBefore, openForMigrations } from '../support/migrate-before.js';

// Migration 0015 over submissions made before a submission kept what was submitted.
describe('migration 0015 on a database with submissions', () => {
  it('gives pending submissions the block as it stands, and decided ones nothing they never recorded', async () => {
    const { database, locked } = await openForMigrations('submissions');
    const db = database.db as unknown as Kysely<any>;
    try {
      await locked(() => migrateBefore(database, '0015'));
      const now = new Date().toISOString();
      await sql`insert into users (id, email, password_hash, created_at) values (101, 'a@x.test', 'h', ${now})`.execute(
        db,
      );
      await sql`insert into blocks (id, owner_id, scope, kind, name, description, docs, block_type, is_deprecated, created_at, updated_at)
        values (101, 101, 'user', 'content', 'Ticker', 'News', 'Docs', 'schema', false, ${now}, ${now})`.execute(db);
      await sql`insert into block_revisions (id, block_id, major, minor, template, css, js, schema_content, created_at)
        values (101, 101, 1, 0, '<p></p>', '', 'x()', '[]', ${now}), (102, 101, 1, 1, '<p></p>', '', 'y()', '[]', ${now})`.execute(
        db,
      );
      await sql`update blocks set current_revision_id = 102 where id = 101`.execute(db);
      await sql`insert into block_submissions (id, block_id, user_id, status, reason, created_at, decided_at)
        values (101, 101, 101, 'rejected', 'No', ${now}, ${now}), (102, 101, 101, 'pending', null, ${now}, null)`.execute(
        db,
      );

      await locked(() => migrateToLatest(database));

      const { rows } = await sql`select id, revision_id, block_name, block_description, block_docs, block_type
        from block_submissions order by id`.execute(db);
      expect(rows).toEqual([
        { id: 101, revision_id: null, block_name: null, block_description: null, block_docs: null, block_type: null },
        {
          id: 102,
          revision_id: 102,
          block_name: 'Ticker',
          block_description: 'News',
          block_docs: 'Docs',
          block_type: 'schema',
        },
      ]);
      expect(await checkIntegrity(database.db)).toEqual([]);
      // A revision of another block is not a submission's: the integrity check says so.
      await sql`insert into blocks (id, owner_id, scope, kind, name, is_deprecated, created_at, updated_at)
        values (102, 101, 'user', 'content', 'Other', false, ${now}, ${now})`.execute(db);
      await sql`insert into block_revisions (id, block_id, major, minor, schema_content, created_at)
        values (103, 102, 1, 0, '[]', ${now})`.execute(db);
      await sql`update blocks set current_revision_id = 103 where id = 102`.execute(db);
      await sql`update block_submissions set revision_id = 103 where id = 102`.execute(db);
      expect((await checkIntegrity(database.db)).map((v) => v.check)).toEqual([
        'a submission keeps a revision of the block submitted, and a pending one keeps one',
      ]);
    } finally {
      await database.close();
    }
  });
});
