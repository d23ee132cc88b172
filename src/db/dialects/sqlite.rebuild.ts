import { sql, type Kysely } from 'kysely';
import type { ForeignKey } from './dialect.js';

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * SQLite cannot add a foreign key to a column (no ALTER TABLE … ADD CONSTRAINT):
 * the table is rebuilt with the reference in the column's definition, its rows,
 * indexes and triggers kept, as migration 0008 rebuilt tables for AUTOINCREMENT.
 * Foreign keys are off meanwhile (dropping the old table would cascade to its
 * children) and checked whole before the commit; neither pragma can change
 * inside a transaction. Legacy renames rewrite no other table's references.
 */
export async function addForeignKeyByRebuild(db: Kysely<any>, key: ForeignKey): Promise<void> {
  await sql`pragma foreign_keys = off`.execute(db);
  await sql`pragma legacy_alter_table = on`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      await rebuild(db, key);
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

async function rebuild(db: Kysely<any>, { table, column, references, onDelete }: ForeignKey): Promise<void> {
  const [definition] = (
    await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db)
  ).rows;
  if (!definition) throw new Error(`no table ${table}`);
  // The column as a plain integer, up to the comma or parenthesis that ends its definition.
  const plain = new RegExp(`(${quoted(column)} integer)(?=\\s*[,)])`, 'i');
  if (!plain.test(definition.sql)) {
    // Another instance migrating the same file at once may have done it already.
    if (new RegExp(`${quoted(column)} integer[^,]* references`, 'i').test(definition.sql)) return;
    throw new Error(`${table}.${column}: unexpected definition ${definition.sql}`);
  }
  const created = definition.sql
    .replace(plain, `$1 references ${quoted(references)} ("id") on delete ${onDelete}`)
    .replace(/^(create table )"?\w+"?/i, '$1"$$rebuilt"');
  const dependents = (
    await sql<{
      sql: string;
    }>`select sql from sqlite_master where tbl_name = ${table} and type in ('index', 'trigger') and sql is not null`.execute(
      db,
    )
  ).rows;
  await sql.raw(created).execute(db);
  await sql.raw(`insert into "$rebuilt" select * from ${quoted(table)}`).execute(db);
  await sql.raw(`drop table ${quoted(table)}`).execute(db);
  await sql.raw(`alter table "$rebuilt" rename to ${quoted(table)}`).execute(db);
  for (const { sql: text } of dependents) await sql.raw(text).execute(db);
}
