import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './dialects/dialect.js';
import { migrations } from './migrations/index.js';

export class MigrationError extends Error {}

/** Applies every pending migration; each runs in its own transaction where the dialect allows. */
export async function migrateToLatest({ db, dialect, schema }: Database): Promise<string[]> {
  const provider: MigrationProvider = {
    getMigrations: async () =>
      Object.fromEntries(
        Object.entries(migrations).map(([name, m]): [string, Migration] => [name, { up: (kdb) => m.up(kdb, dialect) }]),
      ),
  };
  const migrator = new Migrator({
    db,
    provider,
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
    // Kysely looks for its tables across every schema unless told which one is ours.
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- Kysely may reject with anything; its text is all there is
    throw new MigrationError(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
