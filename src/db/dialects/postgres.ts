import { Kysely, PostgresDialect, sql, type SqlBool } from 'kysely';
import { queryLog, type QueryObserver } from './query-log.js';
import pg from 'pg';
import { jobSchema } from '../jobs/index.js';
import { withDryRun } from '../dry-run.js';
import type { DB } from '../schema.js';
import type { Database, Dialect } from './dialect.js';
import { postgresPageVersions } from './postgres.page-versions.js';
import { postgresBlockSearch, postgresPageSearch } from './postgres.search.js';
import { statementName } from './named-statements.js';
import { compactJsonbText } from './jsonb-text.js';

const errorCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;

export const postgresDialect: Dialect = {
  name: 'postgres',
  search: postgresBlockSearch,
  pageSearch: postgresPageSearch,
  pageVersions: postgresPageVersions,
  types: { id: 'serial', bool: 'boolean', timestamp: 'timestamptz', json: 'jsonb' },
  primaryId: (column) => column.primaryKey(),
  defaults: { false: sql`false`, true: sql`true` },
  numberedIds: (ids) => sql`unnest(${ids}::integer[]) with ordinality as o(id, place)`,
  // A json column is read as its text, then parsed as jsonb (read as jsonb, a string would stay a string).
  jsonRows: (json, alias, columns) =>
    sql`(select ${sql.raw(columns.map(([name, type]) => (type === 'json' ? `"${name}"::jsonb as "${name}"` : `"${name}"`)).join(', '))}
      from jsonb_to_recordset(${json}::jsonb) as r(${sql.raw(columns.map(([name, type]) => `"${name}" ${type === 'json' ? 'text' : type}`).join(', '))})) as ${sql.id(alias)}`,
  compactJson: compactJsonbText,
  jsonText: {
    quoted: (ref) => sql<string>`to_json(${sql.ref(ref)})::text`,
    stored: (ref) => sql<string | null>`${sql.ref(ref)}::text`,
    joined: (part, order) => sql<string | null>`string_agg(${part}, ',' order by ${order})`,
    any: (condition) => sql<SqlBool | null>`bool_or(${condition})`,
  },
  writesInWith: true,
  roundTrips: true,
  jobsTable: false,
  reusesDeletedIds: false,
  addForeignKey: async (db, { table, column, references, onDelete }) => {
    await db.schema
      .alterTable(table)
      .addForeignKeyConstraint(`${table}_${column}_fkey`, [column], references, ['id'])
      .onDelete(onDelete)
      .execute();
  },
  forUpdate: (query) => query.forUpdate(),
  forNoKeyUpdate: (query) => query.forNoKeyUpdate(),
  isUniqueViolation: (error) => errorCode(error) === '23505',
  isForeignKeyViolation: (error) => errorCode(error) === '23503',
  // serialization_failure, deadlock_detected
  isRetryable: (error) => ['40001', '40P01'].includes(errorCode(error) ?? ''),
};

/**
 * Values come back in the same shapes as from SQLite: counts and bigints as
 * numbers, timestamps as ISO strings, JSON as text (parsed once, by the caller).
 */
function typeParsers(): pg.CustomTypesConfig {
  const parsers = new Map<number, (value: string) => unknown>([
    [20, (v) => Number(v)], // int8 (count(*))
    [1700, (v) => Number(v)], // numeric
    [1184, (v) => new Date(v).toISOString()], // timestamptz
    [114, (v) => v], // json
    [3802, (v) => v], // jsonb
  ]);
  return {
    getTypeParser: ((oid: number, format?: string) =>
      parsers.get(oid) ?? pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
  };
}

const READ_ONLY = /^\s*select\s/i;

/**
 * A plain select as a named prepared statement on the pool: PostgreSQL parses
 * and plans it once per connection, and it skips Kysely's execution chain.
 * Names follow the texts, which are few (`prepared` compiles each query once).
 * Inside a dry run, undefined: its reads go through its held connection.
 */
function readNow(pool: pg.Pool, inDryRun: () => boolean, onQuery: QueryObserver | undefined) {
  const names = new Map<string, string>();
  return (sqlText: string, parameters: readonly unknown[]): Promise<unknown[]> | undefined => {
    if (!READ_ONLY.test(sqlText)) throw new Error('readNow runs plain selects only.');
    if (inDryRun()) return undefined;
    let name = names.get(sqlText);
    if (name === undefined) names.set(sqlText, (name = `pb_read_${names.size}`));
    const rows = pool.query({ name, text: sqlText, values: parameters as unknown[] }).then((result) => result.rows);
    if (!onQuery) return rows;
    const started = performance.now();
    return rows.then(
      (r) => (onQuery((performance.now() - started) / 1000, false), r),
      (error: unknown) => {
        onQuery((performance.now() - started) / 1000, true);
        throw error;
      },
    );
  };
}

/**
 * A new connection runs the registered texts (namedStatement) as named
 * prepared statements: Kysely hands the driver each query as text and values,
 * and pg prepares a named one once a connection, then only binds and executes it.
 */
function prepareRegistered(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (config: unknown, values?: unknown, callback?: unknown) => {
    const name = typeof config === 'string' ? statementName(config) : undefined;
    if (name === undefined) return query(config, values, callback);
    return query({ name, text: config, values }, callback);
  };
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function openPostgres(options: {
  url: string;
  schema?: string | undefined;
  max?: number;
  /** Told the duration of every query, and whether it failed (metrics). */
  onQuery?: QueryObserver | undefined;
}): Promise<Database> {
  // JIT off: the planner's estimates cross jit_above_cost on short reads (200 instances'
  // revisions on a table not yet analysed), and compiling then took 18-35 ms of a 1 ms query.
  const settings = ['-c jit=off'];
  const poolOptions: pg.PoolConfig = { connectionString: options.url, max: options.max ?? 10, types: typeParsers() };
  if (options.schema) {
    // A private schema (tests): created up front, then every connection works in it.
    const admin = new pg.Client({ connectionString: options.url });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists ${quoteIdent(options.schema)}`);
    } finally {
      await admin.end();
    }
    settings.push(`-c search_path=${options.schema}`);
  }
  poolOptions.options = settings.join(' ');
  const pool = new pg.Pool(poolOptions);
  pool.on('connect', prepareRegistered);
  const { dialect, dryRun, transact, inDryRun } = withDryRun(new PostgresDialect({ pool }), {
    statementSavepoints: true,
  });
  const db = new Kysely<DB>({ dialect, ...queryLog(options.onQuery) });
  return {
    readNow: readNow(pool, inDryRun, options.onQuery),
    db,
    dialect: postgresDialect,
    schema: options.schema,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    dryRun,
    transact,
    close: () => db.destroy(),
  };
}

const SCHEMA_LOCK = 0x5067626c; // "Pgbl": an advisory lock id of our own

/**
 * Runs `work` while holding the server-wide lock that schema drops take too.
 * Kysely's migrator looks for its table across every schema of the database,
 * and that look fails ("schema … does not exist") when another schema is
 * dropped at the same moment, as test files and benchmarks do side by side.
 */
export async function withSchemaLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock($1)', [SCHEMA_LOCK]);
    return await work();
  } finally {
    // Ending the session releases the lock.
    await admin.end();
  }
}

/** Drops a private schema made by `openPostgres` (tests clean up with it). */
export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock($1)', [SCHEMA_LOCK]);
    await admin.query(`drop schema if exists ${quoteIdent(schema)} cascade`);
    // The job queue's schema beside it (pg-boss's, made at its first use).
    await admin.query(`drop schema if exists ${quoteIdent(jobSchema(schema))} cascade`);
  } finally {
    await admin.end();
  }
}
