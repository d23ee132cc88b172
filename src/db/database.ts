import type { Config } from '../config/config.js';
import type { Database } from './dialects/dialect.js';
import { migrateToLatest } from './migrate.js';

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>): Promise<Database> {
  // Only the driver in use is loaded: a faster start, and no native module that is not needed.
  const database = config.databaseUrl
    ? await (await import('./dialects/postgres.js')).openPostgres({ url: config.databaseUrl, schema: config.databaseSchema })
    : (await import('./dialects/sqlite.js')).openSqlite(config.dataDir);
  try {
    await migrateToLatest(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

export type { Database } from './dialects/dialect.js';
