import type { ColumnDataType, ColumnDefinitionBuilder, Expression, Kysely, RawBuilder, SqlBool } from 'kysely';
import type { DryRun } from '../dry-run.js';
import type { DB } from '../schema.js';
import type { ReadNow } from './read-now.js';
import type { BlockSearch, PageSearch } from './search.js';

export type DialectName = 'sqlite' | 'postgres';

/** A column of `Dialect.jsonRows`: its name (the objects' key) and its type. */
export type JsonRowColumn = readonly [name: string, type: 'integer' | 'text' | 'json'];

/**
 * What differs between SQLite and PostgreSQL, and nothing else. Everything
 * outside db/dialects/ is written once against Kysely.
 */
export interface Dialect {
  readonly name: DialectName;
  /** Column types used by migrations. */
  readonly types: {
    /** Auto-incrementing integer primary key. */
    id: ColumnDataType;
    bool: ColumnDataType;
    timestamp: ColumnDataType;
    json: ColumnDataType;
  };
  /**
   * The primary key of a `types.id` column, whose ids are never handed out
   * twice (SQLite needs AUTOINCREMENT for that; test/api/ids.test.ts checks
   * every table).
   */
  primaryId(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /** `DEFAULT` expressions for migrations. */
  readonly defaults: { false: Expression<unknown>; true: Expression<unknown> };
  /** Full-text search over blocks. */
  readonly search: BlockSearch;
  /** Full-text search over pages. */
  readonly pageSearch: PageSearch;
  /**
   * Each page's version, moved by triggers on every write that changes the
   * page's answer, so that any instance can check a kept answer against its
   * own page (PostgreSQL: `pages.content_version`; SQLite: `page_content_versions`).
   */
  readonly pageVersions: PageVersions;
  /**
   * A list of ids as rows `(id, place)`, places from 1 in the list's order: a
   * `from` item named `o`, so that one statement can update each id by its place.
   */
  numberedIds(ids: readonly number[]): RawBuilder<unknown>;
  /**
   * Rows sent as one JSON array of objects (one parameter, however many rows),
   * as a `from` item named `alias` with the columns given, each read from the
   * object's key of its name: many rows written by one statement (an upgrade
   * set's instances) without a parameter per value. A `json` column is sent as
   * the JSON text to store (a string), and comes out as the JSON column's type.
   */
  jsonRows(json: string, alias: string, columns: ReadonlyArray<JsonRowColumn>): RawBuilder<unknown>;
  /**
   * How a JSON column's stored text is brought to `JSON.stringify`'s form, as an
   * answer built from parsed values has it. PostgreSQL's jsonb keeps a text of its
   * own (its key order, spaces), so a write answers with the text its statement
   * returns, brought to that form. Absent where a column keeps the text as written
   * (SQLite): a write may answer with the text it sent.
   */
  compactJson?: (text: string) => string;
  /** JSON written by the database inside a statement (a page's answer's instances): see JsonText. */
  readonly jsonText: JsonText;
  /**
   * A data-modifying `WITH` (PostgreSQL): a new page, its instances and their
   * blocks' read go as one statement, one round trip and one transaction.
   * SQLite has no `INSERT` inside `WITH`: a transaction of several statements.
   */
  readonly writesInWith: boolean;
  /**
   * Every query is a round trip to a server (PostgreSQL): reads asked in the same
   * turn of the event loop gain by going as one statement (the key lookups).
   * SQLite reads in process, at once: nothing to share.
   */
  readonly roundTrips: boolean;
  /**
   * The job queue keeps its jobs in a table of the service's own schema (SQLite:
   * `TableQueue`); PostgreSQL's are in pg-boss's schema, which pg-boss makes itself.
   */
  readonly jobsTable: boolean;
  /**
   * Without AUTOINCREMENT, SQLite hands the ids of the last rows deleted out again
   * (migration 0008 rebuilds its tables for that); PostgreSQL's sequences never go back.
   */
  readonly reusesDeletedIds: boolean;
  /**
   * Adds a foreign key to an existing column (a migration). PostgreSQL alters the
   * table; SQLite cannot, and rebuilds it with the reference in the column's definition.
   */
  addForeignKey(db: Kysely<any>, key: ForeignKey): Promise<void>;
  /** `SELECT … FOR UPDATE` where the database has row locks; SQLite serialises write transactions instead. */
  forUpdate<T extends { forUpdate(): T }>(query: T): T;
  /**
   * `SELECT … FOR NO KEY UPDATE`: excludes the row's other writers, but not the
   * inserts that only reference it (their foreign-key check takes a key-share
   * lock, which this lets through). For a row that is changed, never deleted,
   * while other transactions may pin it (a block while pages take instances of it).
   */
  forNoKeyUpdate<T extends { forNoKeyUpdate(): T }>(query: T): T;
  isUniqueViolation(error: unknown): boolean;
  /** The database gave up on a transaction for another's sake (deadlock, serialization, busy): a fresh try may pass. */
  isRetryable(error: unknown): boolean;
  isForeignKeyViolation(error: unknown): boolean;
}

/**
 * JSON text written by the database, as JSON.stringify writes it once
 * `compactJson` has been applied: strings escaped alike (checked for every
 * character below 128 and beyond), stored values as they are stored.
 */
export interface JsonText {
  /** A text column as a JSON string. */
  quoted: (ref: string) => RawBuilder<string>;
  /** A JSON column's stored text (SQL null stays null). */
  stored: (ref: string) => RawBuilder<string | null>;
  /** An aggregate: the group's texts joined by ',' in `order`; null without rows. */
  joined: (part: RawBuilder<string>, order: RawBuilder<unknown>) => RawBuilder<string | null>;
  /** An aggregate: is `condition` true of any row of the group? Null without rows. */
  any: (condition: RawBuilder<SqlBool>) => RawBuilder<SqlBool | null>;
}

/** `table.column` references `references.id`. */
export interface ForeignKey {
  table: string;
  column: string;
  references: string;
  onDelete: 'restrict' | 'cascade' | 'set null';
}

export interface PageVersions {
  /** The migration that adds them (0013 on PostgreSQL, 0025 on SQLite). */
  readonly since: number;
  /** Adds the column and the triggers that keep it (a migration, once). */
  migrate(db: Kysely<any>): Promise<void>;
  /** The page's current version as text, or null without such a page: an expression to select beside others. */
  of(pageId: number): RawBuilder<string | null>;
}

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** PostgreSQL: the schema the service works in, when not the server's default. */
  schema: string | undefined;
  /** A trivial round trip: does the database answer? */
  ping(): Promise<void>;
  /** Runs `work` in one transaction that is always rolled back: it writes nothing (`?dry_run=1`). */
  dryRun: DryRun;
  /**
   * Runs `work` in one transaction, committed when it succeeds: every
   * repository's queries inside it share it (an outbox's events and the
   * change that causes them). Inside a dry run, part of it.
   */
  transact: DryRun;
  /** A plain select past Kysely's execution chain: see ReadNow. */
  readNow?: ReadNow;
  close(): Promise<void>;
}
