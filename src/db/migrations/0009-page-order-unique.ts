import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/**
 * One instance per place of a page: (page_id, order_index) becomes unique.
 * Parallel edits left duplicate and missing places on PostgreSQL before every
 * page-block change took the page's lock; those pages are renumbered first, in
 * the order they were read in (order_index, then id).
 */
export async function up(db: Kysely<unknown>, _d: Dialect): Promise<void> {
  await sql`
    update page_blocks set order_index = (
      select r.place from (
        select id, row_number() over (partition by page_id order by order_index, id) - 1 as place from page_blocks
      ) r where r.id = page_blocks.id
    )`.execute(db);
  await db.schema.dropIndex('page_blocks_page_id').execute();
  await db.schema
    .createIndex('page_blocks_page_order')
    .on('page_blocks')
    .columns(['page_id', 'order_index'])
    .unique()
    .execute();
}
