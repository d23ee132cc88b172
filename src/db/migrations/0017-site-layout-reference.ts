import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/**
 * `sites.layout_id` references layouts (0001 made it a plain column, before
 * layouts existed). Nothing held the reference: a site's layout changed while
 * that layout was deleted left the site pointing at no layout (18 sites in one
 * run of such races on PostgreSQL). Deleting a layout a site uses is refused
 * (409), so the key restricts. A site already pointing at a missing layout has
 * none: that layout is gone. The index serves the delete's check of the sites.
 */
export async function up(db: Kysely<unknown>, d: Dialect): Promise<void> {
  await sql`
    update sites set layout_id = null
     where layout_id is not null and not exists (select 1 from layouts l where l.id = sites.layout_id)`.execute(db);
  await d.addForeignKey(db, { table: 'sites', column: 'layout_id', references: 'layouts', onDelete: 'restrict' });
  await db.schema.createIndex('sites_layout_id').on('sites').column('layout_id').execute();
}
