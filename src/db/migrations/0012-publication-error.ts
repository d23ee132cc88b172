import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/**
 * The provider's message from the last failed publication of a page, and when
 * it failed, so that the status still tells it later; a success clears both.
 */
export async function up(db: Kysely<unknown>, d: Dialect): Promise<void> {
  await db.schema.alterTable('pages').addColumn('publication_error', 'text').execute();
  await db.schema.alterTable('pages').addColumn('publication_error_at', d.types.timestamp).execute();
}
