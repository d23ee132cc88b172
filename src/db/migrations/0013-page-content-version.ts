import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/**
 * PostgreSQL: `pages.content_version`, kept by triggers, so that every
 * instance can tell whether a kept page answer still holds. SQLite's page
 * versions came later, with 0025 (a table of their own).
 */
export async function up(db: Kysely<unknown>, d: Dialect): Promise<void> {
  if (d.pageVersions.since === 13) await d.pageVersions.migrate(db);
}
