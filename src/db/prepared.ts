import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './dialects/dialect.js';

/** Stands in for a parameter while the query is compiled; replaced at each execution. */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * A hot query built and compiled once, then run with new parameters. Kysely
 * builds and compiles a query on every call, about 0.15 ms each on this
 * machine: a third of the time of a page read with its blocks (bench B1).
 *
 * Only for queries whose SQL text does not depend on the parameter values:
 * plain comparisons, never `in (...)` lists or conditional clauses.
 *
 * Given `readNow` (see Database), a select outside a transaction runs past
 * Kysely's execution chain: on SQLite on the spot, synchronously at the call, so
 * that two such queries called side by side read the same committed state; on
 * PostgreSQL as a named prepared statement on the pool. `first`: the query
 * answers one row at most (a unique key), read as such where it is cheaper.
 */
export function prepared<P extends unknown[], R>(
  db: Kysely<any>,
  arity: P['length'],
  build: (...params: P) => Compilable<R>,
  readNow?: Database['readNow'],
  first?: 'first',
): (...params: P) => Promise<R[]> {
  let compiled: CompiledQuery<R> | undefined;
  // A transaction's own reads go through it: they must see its rows.
  const fast = db.isTransaction ? undefined : readNow;
  return (...params) => {
    compiled ??= build(...(Array.from({ length: arity }, (_, i) => new Slot(i)) as P)).compile();
    const parameters = compiled.parameters.map((p) => (p instanceof Slot ? params[p.index] : p));
    const rows = fast?.(compiled.sql, parameters, first);
    if (rows) return Promise.resolve(rows as R[] | Promise<R[]>);
    return db.executeQuery<R>({ ...compiled, parameters }).then((result) => result.rows);
  };
}

/**
 * As `prepared`, for a statement run on a connection given at each call (a
 * transaction's): built and compiled once, then handed back with new
 * parameters, for `executeQuery` on that connection.
 */
export function compiledOnce<P extends unknown[], R>(
  arity: P['length'],
  build: (...params: P) => Compilable<R>,
): (...params: P) => CompiledQuery<R> {
  let compiled: CompiledQuery<R> | undefined;
  return (...params) => {
    compiled ??= build(...(Array.from({ length: arity }, (_, i) => new Slot(i)) as P)).compile();
    return { ...compiled, parameters: compiled.parameters.map((p) => (p instanceof Slot ? params[p.index] : p)) };
  };
}
