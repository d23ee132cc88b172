import type { Kysely } from 'kysely';

/**
 * An instance's field definitions are its pinned revision's (`revision_id`),
 * which never change once written: `page_blocks.schema_snapshot` was a copy of
 * them, 5 KB an instance, written with every instance (most of a new page's
 * bytes) and never different. Reads take them from the revision; the copy goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('page_blocks').dropColumn('schema_snapshot').execute();
}
