import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, type Kysely } from 'kysely';
import { afterAll } from 'vitest';
import { dropPostgresSchema, openPostgres, withSchemaLock } from '../../src/db/dialects/postgres.js';
import { openSqlite } from '../../src/db/dialects/sqlite.js';
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

// Registered when a test file imports this one: hooks cannot be added from inside a test.
const cleanups: Array<() => Promise<void>> = [];
afterAll(() => Promise.all(cleanups.map((c) => c())));

/**
 * A database of its own to migrate step by step: a SQLite file in a new
 * directory, or (with DATABASE_URL) a new PostgreSQL schema; `locked` runs
 * migrations under the server's schema lock, as the service does. Removed
 * after the file's tests.
 */
export async function openForMigrations(
  label: string,
): Promise<{ database: Database; locked: <T>(run: () => Promise<T>) => Promise<T> }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    cleanups.push(() => dropPostgresSchema(url, schema));
    return { database: await openPostgres({ url, schema }), locked: (run) => withSchemaLock(url, run) };
  }
  const dir = await mkdtemp(join(tmpdir(), `pageblocks-${label}-`));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return { database: openSqlite(dir), locked: (run) => run() };
}
