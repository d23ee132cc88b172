import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/**
 * PostgreSQL: the block search vector moves from `blocks` to a narrow table of
 * its own with a visibility token (as SQLite's index has), so that a search
 * reads fewer pages and never touches the blocks. SQLite's index is rebuilt in
 * its current shape, unchanged.
 */
export async function up(db: Kysely<unknown>, d: Dialect): Promise<void> {
  if (d.name === 'postgres') await d.search.rebuild(db);
}
