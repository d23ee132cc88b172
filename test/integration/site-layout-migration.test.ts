import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { checkIntegrity } from '../../src/db/integrity.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrateBefore, openForMigrations } from '../support/migrate-before.js';

// Migration 0017 over sites that raced their layout's delete before sites.layout_id had its foreign key.
describe('migration 0017 on a database with a site pointing at a deleted layout', () => {
  it('clears the dangling reference, keeps the others, and the key holds from then on', async () => {
    const { database, locked } = await openForMigrations('site-layout');
    const db = database.db as unknown as Kysely<any>;
    try {
      await locked(() => migrateBefore(database, '0017'));
      const now = new Date().toISOString();
      await sql`insert into users (id, email, password_hash, created_at) values (101, 'a@x.test', 'h', ${now})`.execute(
        db,
      );
      await sql`insert into layouts (id, owner_id, scope, name, created_at, updated_at)
        values (101, 101, 'user', 'Kept', ${now}, ${now})`.execute(db);
      // Site 102 points at layout 999, which is gone: what the race left.
      await sql`insert into sites (id, user_id, name, layout_id, created_at, updated_at)
        values (101, 101, 'Bound', 101, ${now}, ${now}), (102, 101, 'Dangling', 999, ${now}, ${now}),
               (103, 101, 'Bare', null, ${now}, ${now})`.execute(db);
      await sql`insert into folders (id, owner_id, site_id, name, created_at) values (101, 101, 102, 'F', ${now})`.execute(
        db,
      );
      await sql`insert into pages (id, owner_id, site_id, folder_id, kind, name, created_at, updated_at)
        values (101, 101, 102, 101, 'article', 'P', ${now}, ${now})`.execute(db);
      // The dangling reference, as the integrity check sees it (the whole check reads tables of later migrations).
      const dangling = await sql`select s.id from sites s
        where s.layout_id is not null and not exists (select 1 from layouts l where l.id = s.layout_id)`.execute(db);
      expect(dangling.rows).toEqual([{ id: 102 }]);

      await locked(() => migrateToLatest(database));

      const { rows } = await sql`select id, layout_id from sites order by id`.execute(db);
      expect(rows).toEqual([
        { id: 101, layout_id: 101 },
        { id: 102, layout_id: null },
        { id: 103, layout_id: null },
      ]);
      // What references the sites survived (SQLite rebuilt the table).
      expect((await sql`select site_id from folders`.execute(db)).rows).toEqual([{ site_id: 102 }]);
      expect((await sql`select site_id, folder_id from pages`.execute(db)).rows).toEqual([
        { site_id: 102, folder_id: 101 },
      ]);
      expect(await checkIntegrity(database.db)).toEqual([]);
      const refused = (e: unknown) => database.dialect.isForeignKeyViolation(e);
      await expect(sql`update sites set layout_id = 999 where id = 103`.execute(db)).rejects.toSatisfy(refused);
      await expect(sql`delete from layouts where id = 101`.execute(db)).rejects.toSatisfy(refused);
      // The site's own delete still cascades and sets null where 0001-0003 said so.
      await sql`delete from sites where id = 102`.execute(db);
      expect((await sql`select count(*) as n from folders`.execute(db)).rows).toEqual([{ n: 0 }]);
      expect((await sql`select site_id, folder_id from pages`.execute(db)).rows).toEqual([
        { site_id: null, folder_id: null },
      ]);
    } finally {
      await database.close();
    }
  });
});
