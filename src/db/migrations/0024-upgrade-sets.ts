import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/**
 * Upgrade sets: one upgrade of a block's instances on many pages, applied at
 * once (`POST /blocks/{id}/upgrades`), and each page it moved, with its
 * version before and after, so that the set can be reverted page by page to
 * the version before it (`POST /upgrade-sets/{id}/revert`).
 */
export async function up(db: Kysely<unknown>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('upgrade_sets')
    .addColumn('id', d.types.id, (c) => d.primaryId(c))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // No foreign key: a set outlives its block (its pages keep their versions).
    .addColumn('block_id', 'integer', (c) => c.notNull())
    .addColumn('to_major', 'integer', (c) => c.notNull())
    .addColumn('to_minor', 'integer', (c) => c.notNull())
    .addColumn('instances', 'integer', (c) => c.notNull())
    .addColumn('created_at', d.types.timestamp, (c) => c.notNull())
    .addColumn('reverted_at', d.types.timestamp)
    .execute();
  await db.schema.createIndex('upgrade_sets_owner_id').on('upgrade_sets').column('owner_id').execute();
  await db.schema
    .createTable('upgrade_set_pages')
    .addColumn('set_id', 'integer', (c) => c.notNull().references('upgrade_sets.id').onDelete('cascade'))
    .addColumn('page_id', 'integer', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    // The place of the page in the set's answer (`pages[i]`).
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('version_before', 'integer', (c) => c.notNull())
    .addColumn('version_after', 'integer', (c) => c.notNull())
    .addColumn('instances', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('upgrade_set_pages_pk', ['set_id', 'page_id'])
    .execute();
}
