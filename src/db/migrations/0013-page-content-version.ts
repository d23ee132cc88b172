import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/**
 * PostgreSQL: `pages.content_version`, kept by triggers, so that every
 * instance can tell whether a kept page answer still holds. SQLite has no
 * such column: its one process checks its write generation, which costs no
 * query and no write (row triggers there would rewrite the page row once per
 * instance written).
 */
export async function up(db: Kysely<unknown>, d: Dialect): Promise<void> {
  await d.pageVersions?.migrate(db);
}
