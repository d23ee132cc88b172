import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/**
 * SQLite: `page_content_versions`, kept by triggers, so that a write makes
 * stale only the kept answers of the pages it changed (until now every write
 * moved one version for the whole database), and several processes on one
 * file check the same versions. PostgreSQL's came with 0013.
 */
export async function up(db: Kysely<unknown>, d: Dialect): Promise<void> {
  if (d.pageVersions.since === 25) await d.pageVersions.migrate(db);
}
