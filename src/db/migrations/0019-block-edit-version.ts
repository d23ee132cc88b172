import type { Kysely } from 'kysely';

/**
 * `blocks.edit_version`: counts the changes of a block (its fields, tags, a
 * new revision, deprecation, cover), so that a block's answers carry a version
 * (`ETag`) and a write can ask that the block still be at it (`If-Match`).
 * The current revision alone does not move when only the name, the docs or the
 * tags change, and two such writes would both go through. Every block starts
 * at 1, the ones already stored too: nobody holds an older tag of them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('blocks')
    .addColumn('edit_version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}
