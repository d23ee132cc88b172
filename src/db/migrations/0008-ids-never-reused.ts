import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/** Every table with an `id` of its own, as 0001–0003 made them. */
const TABLES = [
  'users',
  'api_keys',
  'sites',
  'tags',
  'layout_tags',
  'blocks',
  'block_revisions',
  'collections',
  'block_submissions',
  'layouts',
  'folders',
  'pages',
  'page_blocks',
];

/**
 * An id is never handed out twice. Without AUTOINCREMENT, SQLite gives the
 * next row max(id)+1, so the ids of the last rows deleted come back (a page's
 * blocks replaced by PUT got the ids of the old ones, and a client holding an
 * old id acted on a new instance). SQLite cannot add AUTOINCREMENT to a table:
 * each is rebuilt, with its indexes and triggers. PostgreSQL's sequences never
 * go back; nothing to do there. New tables use `dialect.primaryId`.
 */
export async function up(db: Kysely<unknown>, d: Dialect): Promise<void> {
  if (!d.reusesDeletedIds) return;
  // Dropping a table with foreign keys on would cascade to its children; off, nothing but the rebuild happens.
  // Neither pragma can change inside a transaction. Legacy renames rewrite no other table's references.
  await sql`pragma foreign_keys = off`.execute(db);
  await sql`pragma legacy_alter_table = on`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      for (const table of TABLES) await rebuild(db, table);
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length) throw new Error(`foreign keys broken by the rebuild: ${JSON.stringify(broken.rows)}`);
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  } finally {
    await sql`pragma legacy_alter_table = off`.execute(db);
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

async function rebuild(db: Kysely<unknown>, table: string): Promise<void> {
  const [definition] = (
    await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db)
  ).rows;
  if (!definition) throw new Error(`no table ${table}`);
  // Another instance migrating the same file at once may have done it already.
  if (/autoincrement/i.test(definition.sql)) return;
  const created = definition.sql.replace(
    /^(create table )"?\w+"?( \("id" integer) primary key/i,
    '$1"$$rebuilt"$2 primary key autoincrement',
  );
  if (created === definition.sql) throw new Error(`${table}: unexpected definition ${definition.sql}`);
  const dependents = (
    await sql<{
      sql: string;
    }>`select sql from sqlite_master where tbl_name = ${table} and type in ('index', 'trigger') and sql is not null`.execute(
      db,
    )
  ).rows;
  await sql.raw(created).execute(db);
  await sql.raw(`insert into "$rebuilt" select * from "${table}"`).execute(db);
  await sql.raw(`drop table "${table}"`).execute(db);
  await sql.raw(`alter table "$rebuilt" rename to "${table}"`).execute(db);
  for (const { sql: text } of dependents) await sql.raw(text).execute(db);
}
