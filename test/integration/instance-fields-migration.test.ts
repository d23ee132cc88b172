import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { pageBlocksReader } from '../../src/db/repositories/pages/page-reads.js';
import { migrateBefore, openForMigrations } from '../support/migrate-before.js';

// Migration 0026: an instance's fields are its pinned revision's; the copy each instance kept goes.
describe('migration 0026 on a database whose instances keep a copy of their fields', () => {
  it('keeps every instance and its values, and each reads its pinned revision’s fields', async () => {
    const { database, locked } = await openForMigrations('instance-fields');
    const db = database.db as unknown as Kysely<any>;
    try {
      await locked(() => migrateBefore(database, '0026'));
      const now = new Date().toISOString();
      const v1 = JSON.stringify([{ name: 'title', type: 'string' }]);
      const v2 = JSON.stringify([
        { name: 'title', type: 'string' },
        { name: 'body', type: 'text' },
      ]);
      await sql`insert into users (id, email, password_hash, created_at) values (101, 'a@x.test', 'h', ${now})`.execute(
        db,
      );
      await sql`insert into pages (id, owner_id, kind, name, created_at, updated_at)
        values (101, 101, 'article', 'P', ${now}, ${now})`.execute(db);
      await sql`insert into blocks (id, owner_id, scope, kind, name, created_at, updated_at)
        values (101, 101, 'user', 'content', 'B', ${now}, ${now})`.execute(db);
      await sql`insert into block_revisions (id, block_id, major, minor, schema_content, created_at)
        values (101, 101, 1, 0, ${v1}, ${now}), (102, 101, 1, 1, ${v2}, ${now})`.execute(db);
      await sql`update blocks set current_revision_id = 102 where id = 101`.execute(db);
      await sql`insert into page_blocks (id, page_id, block_id, revision_id, major, minor, schema_snapshot,
          placeholder_values, parent_page_block_id, order_index, created_at, updated_at)
        values (101, 101, 101, 101, 1, 0, ${v1}, '{"title":"old"}', null, 0, ${now}, ${now}),
               (102, 101, 101, 102, 1, 1, ${v2}, '{"title":"new"}', null, 1, ${now}, ${now})`.execute(db);

      await locked(() => migrateToLatest(database));

      const instances = await pageBlocksReader(database.db).all(101);
      expect(
        instances.map((i) => ({ id: i.id, values: i.placeholder_values, fields: i.schema_snapshot.value })),
      ).toEqual([
        { id: 101, values: { title: 'old' }, fields: JSON.parse(v1) },
        { id: 102, values: { title: 'new' }, fields: JSON.parse(v2) },
      ]);
      expect(instances.map((i) => i.update_status)).toEqual(['outdated_minor', 'up_to_date']);
      await expect(sql`select schema_snapshot from page_blocks`.execute(db)).rejects.toThrow(/schema_snapshot/);
    } finally {
      await database.close();
    }
  });
});
