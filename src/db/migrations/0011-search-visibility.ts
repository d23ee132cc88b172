import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/**
 * Block search ranks and counts inside the full-text index: on SQLite its
 * entries get a visibility token (rebuilt here from the blocks, then kept by
 * a trigger); on PostgreSQL the vector is already on the block.
 */
export async function up(db: Kysely<unknown>, d: Dialect): Promise<void> {
  await d.search.rebuild(db);
}
