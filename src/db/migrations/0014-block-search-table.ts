import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/**
 * PostgreSQL: the block search vector moves from `blocks` to a narrow table of
 * its own with a visibility token (as SQLite's index has), so that a search
 * reads fewer pages and never touches the blocks. SQLite's index is rebuilt in
 * the shape 0011 gave it, the same entries (a database migrated before this
 * step was not rebuilt; either way it holds what its blocks say).
 */
export async function up(db: Kysely<unknown>, d: Dialect): Promise<void> {
  await d.search.rebuild(db);
}
