import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/db/dialects/sqlite.js';
import type { Database } from '../../src/db/dialects/dialect.js';

// The embedded database keeps compiled statements between requests. libsql
// binds new parameters only to a statement that was reset, silently: these
// sequences are the ones that once answered a request with the rows of the
// request before it (a site read by id returned the previous id's site).
const SELECT = 'select id, label from things where id = ?';

describe.skipIf(process.env.DATABASE_URL)('kept SQLite statements answer each call with its own parameters', () => {
  let dir: string;
  let database: Database;
  const first = (id: unknown) => database.readNow!(SELECT, [id], 'first') as Array<{ id: number }>;
  const all = (id: unknown) => database.readNow!(SELECT, [id]) as Array<{ id: number }>;
  const throughKysely = async (id: number) =>
    (await sql<{ id: number }>`select id, label from things where id = ${id}`.execute(database.db)).rows;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pageblocks-statements-'));
    database = openSqlite(dir);
    await sql`create table things (id integer primary key, label text check (length(label) < 10))`.execute(database.db);
    await sql`insert into things values (1, 'one'), (2, 'two'), (3, 'three')`.execute(database.db);
  });
  afterAll(async () => {
    await database.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a first-row read after the same select ran through Kysely (inside a transaction)', async () => {
    await database.db.transaction().execute(async (trx) => {
      expect((await sql<{ id: number }>`select id, label from things where id = ${2}`.execute(trx)).rows).toEqual([
        { id: 2, label: 'two' },
      ]);
    });
    expect(first(1)).toEqual([{ id: 1, label: 'one' }]);
    expect(first(3)).toEqual([{ id: 3, label: 'three' }]);
  });

  it('a first-row read after the same select ran to its end outside a transaction', async () => {
    expect(await throughKysely(2)).toEqual([{ id: 2, label: 'two' }]);
    expect(first(1)).toEqual([{ id: 1, label: 'one' }]);
    expect(all(3)).toEqual([{ id: 3, label: 'three' }]);
    expect(first(2)).toEqual([{ id: 2, label: 'two' }]);
  });

  it('a first-row read after one that threw while it ran', async () => {
    // abs() of the smallest integer fails in the step, after the parameters were bound.
    const failing = 'select id, abs(?) as size from things where id = ?';
    expect(() => database.readNow!(failing, [-9223372036854775808n, 1], 'first')).toThrow(/overflow/);
    expect(database.readNow!(failing, [5, 3], 'first')).toEqual([{ id: 3, size: 5 }]);
    expect(first(42)).toEqual([]);
  });

  it('inside a dry run, and after it ended in a constraint failure', async () => {
    await expect(
      database.dryRun(async () => {
        expect(await throughKysely(2)).toEqual([{ id: 2, label: 'two' }]);
        await sql`insert into things values (4, 'far too long a label')`.execute(database.db);
      }),
    ).rejects.toThrow(/CHECK constraint/);
    expect(first(1)).toEqual([{ id: 1, label: 'one' }]);
    expect(await throughKysely(4)).toEqual([]);
  });

  it('a write run again after it threw takes its new values', async () => {
    await expect(
      sql`update things set label = ${'far too long a label'} where id = ${1}`.execute(database.db),
    ).rejects.toThrow();
    await sql`update things set label = ${'uno'} where id = ${2}`.execute(database.db);
    expect(all(1)).toEqual([{ id: 1, label: 'one' }]);
    expect(all(2)).toEqual([{ id: 2, label: 'uno' }]);
  });
});
