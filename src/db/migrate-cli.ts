import { loadConfig } from '../config/config.js';
import { openPostgres } from './dialects/postgres.js';
import { openSqlite } from './dialects/sqlite.js';
import { migrateToLatest } from './migrate.js';

// `npm run migrate`: the same migrations the service applies at start.
const config = loadConfig();
const database = config.databaseUrl
  ? await openPostgres({ url: config.databaseUrl, schema: config.databaseSchema })
  : openSqlite(config.dataDir);
try {
  const applied = await migrateToLatest(database);
  process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
} finally {
  await database.close();
}
