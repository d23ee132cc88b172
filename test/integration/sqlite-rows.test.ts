import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/db/dialects/sqlite.js';
import type { Database } from '../../src/db/database.js';

// SQLite's rows are read as arrays and named by the driver adapter (src/db/dialects/sqlite.ts).
let dir: string;
let database: Database;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pb-sqlite-rows-'));
  database = openSqlite(dir);
});
afterAll(async () => {
  await database.close();
  await rm(dir, { recursive: true, force: true });
});

describe('SQLite rows', () => {
  it('are named by their columns, a later column of the same name winning, with nothing else on them', async () => {
    const { rows } = await sql`select 1 as a, 'x' as b, null as c, 2 as a`.execute(database.db);
    expect(rows).toEqual([{ a: 2, b: 'x', c: null }]);
    const text = 'select ? as n, ? as s';
    expect(database.readNow!(text, [7, 'q'], 'first')).toEqual([{ n: 7, s: 'q' }]);
    expect(database.readNow!(`${text} where 0`, [7, 'q'], 'first')).toEqual([]);
    expect(database.readNow!(`${text} union all select 8, 'r'`, [7, 'q'])).toEqual([
      { n: 7, s: 'q' },
      { n: 8, s: 'r' },
    ]);
  });

  it('of a kept `select *` show a column added since the statement was first run', async () => {
    await sql`create table widened (id integer primary key)`.execute(database.db);
    await sql`insert into widened (id) values (1)`.execute(database.db);
    const all = () => sql`select * from widened`.execute(database.db).then((r) => r.rows);
    expect(await all()).toEqual([{ id: 1 }]);
    await sql`alter table widened add column label text default 'new'`.execute(database.db);
    expect(await all()).toEqual([{ id: 1, label: 'new' }]);
  });
});
