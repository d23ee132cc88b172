/**
 * The settings every pooled PostgreSQL connection of the service starts with.
 * JIT is off: on a table not yet analysed the planner's estimates cross
 * jit_above_cost on short reads, and compiling took longer than the query.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';

describe.runIf(process.env.DATABASE_URL)('the service’s PostgreSQL connections', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('run without JIT, in the service’s own schema', async () => {
    const db = t.app.database.db;
    // Several at once, so that more than one pooled connection answers.
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        sql<{ jit: string; schema: string }>`select current_setting('jit') as jit, current_schema() as schema`.execute(
          db,
        ),
      ),
    );
    for (const { rows } of answers) expect(rows).toEqual([{ jit: 'off', schema: t.config.databaseSchema }]);
  });
});
