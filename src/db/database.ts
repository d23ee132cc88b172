import type { Config } from '../config/config.js';
import type { Database } from './dialects/dialect.js';
import type { QueryObserver } from './dialects/query-log.js';
import { migrateToLatest } from './migrate.js';

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>,
  options: { onQuery?: QueryObserver | undefined } = {},
): Promise<Database> {
  // Only the driver in use is loaded: a faster start, and no native module that is not needed.
  const postgres = config.databaseUrl ? await import('./dialects/postgres.js') : undefined;
  const database = postgres
    ? await postgres.openPostgres({ url: config.databaseUrl!, schema: config.databaseSchema, onQuery: options.onQuery })
    : (await import('./dialects/sqlite.js')).openSqlite(config.dataDir, options.onQuery);
  try {
    await (postgres
      ? postgres.withSchemaLock(config.databaseUrl!, () => migrateToLatest(database))
      : migrateToLatest(database));
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

export type { Database } from './dialects/dialect.js';
export type { QueryObserver } from './dialects/query-log.js';
