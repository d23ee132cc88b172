import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/**
 * A publication in flight claims its page, so that two racing publish requests
 * create one document at the provider. A transaction cannot hold the page for
 * the provider's ten seconds (SQLite has one writer), a claimed column can.
 */
export async function up(db: Kysely<unknown>, d: Dialect): Promise<void> {
  await db.schema.alterTable('pages').addColumn('publication_claimed_at', d.types.timestamp).execute();
}
