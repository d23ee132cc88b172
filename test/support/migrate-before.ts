import { Migrator, type Kysely } from 'kysely';
import type { Database } from '../../src/db/dialects/dialect.js';
import { migrations } from '../../src/db/migrations/index.js';

/** Runs every migration named before `first` (e.g. '0011'): a database as it was before that one, to test it over. */
export async function migrateBefore(database: Database, first: string): Promise<void> {
  const db = database.db as unknown as Kysely<any>;
  const before = Object.entries(migrations).filter(([name]) => name < first);
  const { error } = await new Migrator({
    db,
    provider: {
      getMigrations: async () =>
        Object.fromEntries(before.map(([name, m]) => [name, { up: (k: Kysely<any>) => m.up(k, database.dialect) }])),
    },
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
    // As migrateToLatest: on PostgreSQL, in the database's own schema.
    ...(database.schema ? { migrationTableSchema: database.schema } : {}),
  }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error('migration failed', { cause: error });
}
