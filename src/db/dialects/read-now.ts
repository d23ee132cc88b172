/**
 * Runs a plain select past Kysely's execution chain (about 60 µs a query).
 * SQLite: at once, synchronously, when the connection holds no open
 * transaction; undefined when it holds one (another request's or a dry run's
 * uncommitted rows): the caller goes through Kysely then, whose driver waits
 * for that transaction. With `first`, only the first row is read (at most one
 * in the answer): cheaper on libsql. PostgreSQL: as a named prepared statement
 * on the pool (parsed once per connection), a promise; undefined inside a dry
 * run, whose reads must go through its held connection.
 */
export type ReadNow = (
  sqlText: string,
  parameters: readonly unknown[],
  first?: 'first',
) => unknown[] | Promise<unknown[]> | undefined;
