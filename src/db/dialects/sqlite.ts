import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CompiledQuery, Kysely, SqliteDialect, sql, type SqlBool } from 'kysely';
import { queryLog, type QueryObserver } from './query-log.js';
import Libsql from 'libsql';
import { CrossRequestCache, type Keepable } from '../../shared/cross-request-cache.js';
import { withDryRun, type IdCounters } from '../dry-run.js';
import type { DB } from '../schema.js';
import type { Database, Dialect } from './dialect.js';
import { sqliteBlockSearch, sqlitePageSearch } from './sqlite.search.js';
import { addForeignKeyByRebuild } from './sqlite.rebuild.js';
import { sqlitePageVersions } from './sqlite.page-versions.js';

const errorCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  search: sqliteBlockSearch,
  pageSearch: sqlitePageSearch,
  pageVersions: sqlitePageVersions,
  types: { id: 'integer', bool: 'integer', timestamp: 'text', json: 'text' },
  primaryId: (column) => column.primaryKey().autoIncrement(),
  defaults: { false: sql`0`, true: sql`1` },
  numberedIds: (ids) => sql`(select value as id, key + 1 as place from json_each(${JSON.stringify(ids)})) as o`,
  // json_extract gives a JSON string's text as it was sent (unescaped), a number as an integer.
  jsonRows: (json, alias, columns) =>
    sql`(select ${sql.raw(columns.map(([name]) => `json_extract(value, '$."${name}"') as "${name}"`).join(', '))} from json_each(${json})) as ${sql.id(alias)}`,
  jsonText: {
    quoted: (ref) => sql<string>`json_quote(${sql.ref(ref)})`,
    stored: (ref) => sql<string | null>`${sql.ref(ref)}`,
    joined: (part, order) => sql<string | null>`group_concat(${part}, ',' order by ${order})`,
    any: (condition) => sql<SqlBool | null>`max(${condition})`,
  },
  writesInWith: false,
  roundTrips: false,
  jobsTable: true,
  reusesDeletedIds: true,
  addForeignKey: addForeignKeyByRebuild,
  // One connection, one writer: a transaction already excludes every other.
  forUpdate: (query) => query,
  forNoKeyUpdate: (query) => query,
  isUniqueViolation: (error) => {
    const code = errorCode(error);
    return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  },
  // Another process holds the file longer than busy_timeout (SQLITE_BUSY and its extended codes).
  isRetryable: (error) => (errorCode(error) ?? '').startsWith('SQLITE_BUSY'),
  // A RESTRICT action reports itself as a trigger constraint, with the foreign-key message.
  isForeignKeyViolation: (error) =>
    errorCode(error) === 'SQLITE_CONSTRAINT_FOREIGNKEY' ||
    (errorCode(error) === 'SQLITE_CONSTRAINT_TRIGGER' &&
      /FOREIGN KEY constraint failed/.test(String((error as Error).message))),
};

/**
 * libsql aborts the whole process on a boolean parameter (it is not a SQLite
 * type), so every parameter passes through here: booleans become 0/1.
 */
const toSqliteValue = (value: unknown): unknown => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

type RawStatement = {
  reader: boolean;
  raw(toggle?: boolean): unknown;
  columns(): Array<{ name: string }>;
  all(params: unknown[]): unknown[];
  get(params: unknown[]): unknown;
  run(params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(params: unknown[]): IterableIterator<unknown>;
};

/**
 * A compiled statement as Kysely's SQLite driver calls it: `all` and `iterate`
 * for statements that return rows, `run` for the others. libsql's `get` is not
 * here: see `FirstRowStatement`.
 */
interface AdaptedStatement {
  // Read once: on the raw statement it is a native call, and Kysely reads it on every query.
  reader: boolean;
  all(params: unknown[]): unknown[];
  run(params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(params: unknown[]): IterableIterator<unknown>;
}

/** A select read for its first row only, through libsql's `get` (half the time of `all` on one row). */
interface FirstRowStatement {
  get(params: unknown[]): unknown;
}

/**
 * Rows of a statement that returns some, read as arrays and named here: libsql
 * builds an object row natively at about twice the cost (and adds a timing
 * `_metadata` to `get`'s). A later column of the same name wins, as in libsql's
 * own objects. The names are read again when a row's width changes (a
 * `select *` re-prepared by SQLite after a migration).
 */
function rowsOf(statement: RawStatement) {
  statement.raw(true);
  let names = statement.columns().map((column) => column.name);
  const row = (values: unknown[]) => {
    if (values.length !== names.length) names = statement.columns().map((column) => column.name);
    const named: Record<string, unknown> = {};
    for (let i = 0; i < values.length; i++) named[names[i]!] = values[i];
    return named;
  };
  return {
    all: (params: unknown[]) => (statement.all(params) as unknown[][]).map(row),
    get: (params: unknown[]) => {
      const values = statement.get(params) as unknown[] | undefined;
      return values === undefined ? undefined : row(values);
    },
    iterate: function* (params: unknown[]) {
      for (const values of statement.iterate(params) as IterableIterator<unknown[]>) yield row(values);
    },
  };
}

const toParams = (params: unknown[]) => params.map(toSqliteValue);

const adapt = (statement: RawStatement): AdaptedStatement => {
  const reader = statement.reader;
  const rows = reader ? rowsOf(statement) : statement;
  return {
    reader,
    all: (params) => rows.all(toParams(params)),
    run: (params) => statement.run(toParams(params)),
    iterate: (params) => rows.iterate(toParams(params)),
  };
};

// Kysely asks for a statement per query; the same SQL text is compiled once and
// reused (one connection, synchronous execution: a statement is never shared mid-run).
const MAX_STATEMENTS = 500;

/** A plain select: the only statement `readNow` runs. */
const READ_ONLY = /^\s*select\s/i;

/**
 * Compiled statements kept between requests, by SQL text, in two lanes that
 * never share a native statement. libsql binds new parameters only to a
 * statement that was reset, and ignores the bind silently otherwise:
 * - `all` and `iterate` reset before they bind, but leave the statement
 *   unreset after it; `get` binds first and resets only after a success;
 * - so a `get` after an `all` on the same statement, or after a `get` that
 *   threw, runs again with the previous call's parameters: another request's
 *   site id, a write's old values (test/integration/sqlite-statements.test.ts).
 * Kysely's lane uses only `all`, `iterate` and `run`; the first-row lane only
 * `get`. A statement whose call threw is dropped either way, so nothing left
 * half-run by one request is met by the next.
 */
function statementCache<S extends Keepable>(compile: (sqlText: string) => S) {
  const statements = new CrossRequestCache<string, S>({ budget: MAX_STATEMENTS });
  return {
    clear: () => statements.clear(),
    drop: (sqlText: string) => statements.delete(sqlText),
    get(sqlText: string): S {
      let statement = statements.get(sqlText);
      if (statement === undefined) statements.set(sqlText, (statement = compile(sqlText)));
      return statement;
    },
  };
}

/** `call` on a kept statement; if it throws, the statement is never handed out again. */
function dropOnThrow<T>(cache: { drop(sqlText: string): unknown }, sqlText: string, call: () => T): T {
  try {
    return call();
  } catch (error) {
    cache.drop(sqlText);
    throw error;
  }
}

function adaptDatabase(raw: InstanceType<typeof Libsql>) {
  const kysely = statementCache((sqlText) => adapt(raw.prepare(sqlText)));
  const firstRow = statementCache((sqlText): FirstRowStatement => rowsOf(raw.prepare(sqlText)));
  return {
    close: () => {
      kysely.clear();
      firstRow.clear();
      raw.close();
    },
    /** Kysely's lane. */
    prepare: (sqlText: string): AdaptedStatement => {
      const statement = kysely.get(sqlText);
      return {
        reader: statement.reader,
        all: (params) => dropOnThrow(kysely, sqlText, () => statement.all(params)),
        run: (params) => dropOnThrow(kysely, sqlText, () => statement.run(params)),
        iterate: (params) => dropOnThrow(kysely, sqlText, () => statement.iterate(params)),
      };
    },
    /** The first-row lane (plain selects only). */
    firstRow: (sqlText: string, params: unknown[]): unknown =>
      dropOnThrow(firstRow, sqlText, () => firstRow.get(sqlText).get(toParams(params))),
    /** A plain select's rows, on Kysely's lane. */
    all: (sqlText: string, params: unknown[]): unknown[] =>
      dropOnThrow(kysely, sqlText, () => kysely.get(sqlText).all(params)),
  };
}

/**
 * A plain select run on the spot, unless a transaction is open on the connection:
 * Kysely's driver holds its mutex from BEGIN to COMMIT, and a read running beside
 * it would see that transaction's uncommitted rows. Timed for the observer like
 * every query that goes through Kysely.
 */
function readNow(
  raw: InstanceType<typeof Libsql>,
  statements: ReturnType<typeof adaptDatabase>,
  onQuery: QueryObserver | undefined,
) {
  return (sqlText: string, parameters: readonly unknown[], first?: 'first'): unknown[] | undefined => {
    if (!READ_ONLY.test(sqlText)) throw new Error('readNow runs plain selects only.');
    if (raw.inTransaction) return undefined;
    const started = onQuery ? performance.now() : 0;
    try {
      let rows: unknown[];
      if (first) {
        const row = statements.firstRow(sqlText, parameters as unknown[]);
        rows = row === undefined ? [] : [row];
      } else rows = statements.all(sqlText, parameters as unknown[]);
      onQuery?.((performance.now() - started) / 1000, false);
      return rows;
    } catch (error) {
      onQuery?.((performance.now() - started) / 1000, true);
      throw error;
    }
  };
}

/** AUTOINCREMENT's counters, as a dry run left them, set again after its rollback (see IdCounters). */
const sqliteIdCounters: IdCounters = {
  // sqlite_sequence exists once a table with AUTOINCREMENT does (every database past migration 0008).
  read: async (connection) => {
    const exists = await connection.executeQuery(
      CompiledQuery.raw("select 1 from sqlite_master where type = 'table' and name = 'sqlite_sequence'"),
    );
    if (!exists.rows.length) return [];
    return (await connection.executeQuery(CompiledQuery.raw('select name, seq from sqlite_sequence'))).rows;
  },
  keep: async (connection, read) => {
    const rows = read as Array<{ name: string; seq: number }>;
    if (!rows.length) return;
    await connection.executeQuery(
      CompiledQuery.raw(
        'update sqlite_sequence set seq = max(sqlite_sequence.seq, counters.kept) from ' +
          '(select value ->> 0 as name, value ->> 1 as kept from json_each(?)) as counters ' +
          'where sqlite_sequence.name = counters.name',
        [JSON.stringify(rows.map((row) => [row.name, row.seq]))],
      ),
    );
  },
};

export function openSqlite(dataDir: string, onQuery?: QueryObserver): Database {
  mkdirSync(dataDir, { recursive: true });
  const raw = new Libsql(join(dataDir, 'pageblocks.sqlite'));
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  const adapted = adaptDatabase(raw);
  const { dialect, dryRun, transact } = withDryRun(new SqliteDialect({ database: adapted }), {
    counters: sqliteIdCounters,
  });
  const db = new Kysely<DB>({ dialect, ...queryLog(onQuery) });
  return {
    db,
    dialect: sqliteDialect,
    schema: undefined,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    dryRun,
    transact,
    readNow: readNow(raw, adapted, onQuery),
    close: () => db.destroy(),
  };
}
