import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver } from 'kysely';

/** Runs `work` so that everything it writes is undone at the end, whatever it returns or throws. */
export type DryRun = <T>(work: () => Promise<T>) => Promise<T>;

interface Held {
  connection: DatabaseConnection;
  /** Transactions opened inside the dry run, each a savepoint. */
  depth: number;
}

const raw = (connection: DatabaseConnection, text: string) => connection.executeQuery(CompiledQuery.raw(text));

/**
 * The held connection, one query at a time: code inside a dry run may read in
 * parallel (as it may on the pool), but a connection runs one query at once,
 * and pg deprecates queueing a second on a busy client. With
 * `statementSavepoints`, a statement outside any transaction of the work runs
 * in a savepoint of its own: on PostgreSQL a failed statement aborts the whole
 * transaction, and the work's next statement (a repository naming what a
 * foreign key refused, as it does outside a dry run) would fail with it.
 */
function oneAtATime(
  connection: DatabaseConnection,
  depth: () => number,
  statementSavepoints: boolean,
): DatabaseConnection {
  let tail: Promise<unknown> = Promise.resolve();
  const alone = async <R>(query: CompiledQuery) => {
    if (!statementSavepoints || depth() > 0) return connection.executeQuery<R>(query);
    await raw(connection, 'savepoint dry_run_statement');
    try {
      const result = await connection.executeQuery<R>(query);
      await raw(connection, 'release savepoint dry_run_statement');
      return result;
    } catch (error) {
      await raw(connection, 'rollback to savepoint dry_run_statement');
      await raw(connection, 'release savepoint dry_run_statement');
      throw error;
    }
  };
  return {
    executeQuery: <R>(query: CompiledQuery) => {
      const run = tail.then(() => alone<R>(query));
      tail = run.catch(() => undefined);
      return run;
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  };
}

/**
 * Where a rollback also takes back the ids a transaction handed out (SQLite's
 * `sqlite_sequence` is a table like any other), the dry run reads the counters
 * before its rollback and moves them back up after it, on the same connection
 * before it is released: an id shown in a dry run's answer is never another
 * object's later, and nothing kept by id (a revision's parsed template, its
 * compiled schema) can meet a second object under one id. PostgreSQL's
 * sequences never go back: nothing to do there.
 */
export interface IdCounters {
  read(connection: DatabaseConnection): Promise<unknown>;
  keep(connection: DatabaseConnection, read: unknown): Promise<void>;
}

/**
 * A dialect whose driver can run a piece of work in one transaction that is
 * always rolled back. Inside it every query, from any repository, uses that
 * transaction's connection (an AsyncLocalStorage tells which work is inside),
 * and a transaction a repository opens becomes a savepoint. So a dry run
 * executes the real code path, constraints and all, reads its own writes to
 * build the answer, and leaves nothing behind.
 */
export function withDryRun(
  dialect: Dialect,
  options: { counters?: IdCounters; statementSavepoints?: boolean } = {},
): { dialect: Dialect; dryRun: DryRun; transact: DryRun; inDryRun: () => boolean } {
  const held = new AsyncLocalStorage<Held>();
  let inner: Driver | undefined;
  // Kysely initialises the driver at the first query (the migrations, at open).
  let initialised = false;
  const mine = (connection: DatabaseConnection) => {
    const store = held.getStore();
    return store?.connection === connection ? store : undefined;
  };

  const driver = (base: Driver): Driver => ({
    init: async () => {
      await base.init();
      initialised = true;
    },
    destroy: () => base.destroy(),
    acquireConnection: async () => held.getStore()?.connection ?? base.acquireConnection(),
    releaseConnection: async (connection) => {
      if (!mine(connection)) await base.releaseConnection(connection);
    },
    beginTransaction: async (connection, settings) => {
      const store = mine(connection);
      if (!store) return base.beginTransaction(connection, settings);
      store.depth++;
      await raw(connection, `savepoint dry_run_${store.depth}`);
    },
    commitTransaction: async (connection) => {
      const store = mine(connection);
      if (!store) return base.commitTransaction(connection);
      await raw(connection, `release savepoint dry_run_${store.depth}`);
      store.depth--;
    },
    rollbackTransaction: async (connection) => {
      const store = mine(connection);
      if (!store) return base.rollbackTransaction(connection);
      await raw(connection, `rollback to savepoint dry_run_${store.depth}`);
      await raw(connection, `release savepoint dry_run_${store.depth}`);
      store.depth--;
    },
  });

  const wrapped: Dialect = {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => {
      inner = dialect.createDriver();
      return driver(inner);
    },
  };

  const dryRun: DryRun = async (work) => {
    if (held.getStore()) return work();
    if (!inner || !initialised) throw new Error('dry run before the database was opened');
    const connection = await inner.acquireConnection();
    try {
      await inner.beginTransaction(connection, {});
      let handedOut: unknown;
      try {
        const store: Held = { connection, depth: 0 };
        store.connection = oneAtATime(connection, () => store.depth, options.statementSavepoints ?? false);
        return await held.run(store, work);
      } finally {
        // The rollback runs whatever happens before it: a connection handed back inside a transaction
        // would give the next request this one's writes.
        try {
          if (options.counters) handedOut = await options.counters.read(connection);
        } finally {
          await inner.rollbackTransaction(connection);
        }
        if (options.counters) await options.counters.keep(connection, handedOut);
      }
    } finally {
      await inner.releaseConnection(connection);
    }
  };

  /**
   * The same held connection, committed at the end when `work` succeeds
   * (rolled back when it throws): every query of every repository inside it,
   * and a transaction one opens (a savepoint), is one transaction. What an
   * outbox needs: a change and the events it causes are stored together or
   * not at all. Inside a dry run it is part of the dry run (rolled back).
   */
  const transact: DryRun = async (work) => {
    if (held.getStore()) return work();
    if (!inner || !initialised) throw new Error('transaction before the database was opened');
    const connection = await inner.acquireConnection();
    try {
      await inner.beginTransaction(connection, {});
      let result: Awaited<ReturnType<typeof work>>;
      try {
        const store: Held = { connection, depth: 0 };
        store.connection = oneAtATime(connection, () => store.depth, options.statementSavepoints ?? false);
        result = await held.run(store, work);
      } catch (error) {
        // Whatever happens: a connection handed back inside a transaction would give the next request its writes.
        await inner.rollbackTransaction(connection);
        throw error;
      }
      await inner.commitTransaction(connection);
      return result;
    } finally {
      await inner.releaseConnection(connection);
    }
  };

  return { dialect: wrapped, dryRun, transact, inDryRun: () => held.getStore() !== undefined };
}
