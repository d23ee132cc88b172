import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/**
 * Each stored upload, its owner and its size: what a user's storage quota
 * counts. Files stored before this migration are not counted (their sizes
 * were never kept).
 */
export async function up(db: Kysely<unknown>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('uploads')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('created_at', d.types.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('uploads_user_id').on('uploads').column('user_id').execute();
}
