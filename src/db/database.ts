import type { Config } from '../config/config.js';
import type { Database } from './dialects/dialect.js';
import { openPostgres } from './dialects/postgres.js';
import { openSqlite } from './dialects/sqlite.js';
import { migrateToLatest } from './migrate.js';

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>): Promise<Database> {
  const database = config.databaseUrl
    ? await openPostgres({ url: config.databaseUrl, schema: config.databaseSchema })
    : openSqlite(config.dataDir);
  try {
    await migrateToLatest(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

export type { Database } from './dialects/dialect.js';
