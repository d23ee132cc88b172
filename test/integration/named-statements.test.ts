/**
 * On PostgreSQL a registered text (namedStatement) runs as a named prepared
 * statement on whichever connection runs it: the pool's, a transaction's, a
 * dry run's. A new page's one statement is registered so (page-insert.postgres.ts).
 */
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedStatement, statementName } from '../../src/db/dialects/named-statements.js';
import { startApp, type TestApp } from '../support/app.js';

const postgres = Boolean(process.env.DATABASE_URL);
let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

describe.runIf(postgres)('a named statement', () => {
  it('is prepared once a connection and answers as the text would, in a transaction and in a dry run', async () => {
    const text = namedStatement('select $1::int + 1 as n, current_setting($2) as path');
    const name = statementName(text)!;
    const db = t.app.database.db;
    const prepared = sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where name = ${name}`;
    const run = (on: typeof db, x: number) =>
      on.executeQuery<{ n: number; path: string }>(CompiledQuery.raw(text, [x, 'search_path']));
    await db.transaction().execute(async (trx) => {
      expect((await prepared.execute(trx)).rows[0]!.n).toBe(0);
      expect((await run(trx, 1)).rows[0]).toEqual({ n: 2, path: t.config.databaseSchema });
      expect((await run(trx, 41)).rows[0]!.n).toBe(42);
      expect((await prepared.execute(trx)).rows[0]!.n).toBe(1);
    });
    await t.app.database.dryRun(async () => {
      expect((await run(db, 2)).rows[0]!.n).toBe(3);
      expect((await prepared.execute(db)).rows[0]!.n).toBe(1);
    });
  });
});
