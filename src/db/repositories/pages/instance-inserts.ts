import { type Compilable, type CompiledQuery, type Kysely } from 'kysely';
import type { NewInstance } from '../../../modules/pages/pages.js';
import type { Database } from '../../dialects/dialect.js';
import type { DB } from '../../schema.js';
import { compiledOnce } from '../../prepared.js';
import { toJson } from '../rows.js';

/** An instance's row as a write gives it (its fields are its pinned revision's: never copied). */
export const instanceRow = (pageId: number, instance: NewInstance, orderIndex: number, now: string) => ({
  page_id: pageId,
  block_id: instance.block_id,
  revision_id: instance.revision_id,
  major: instance.version.major,
  minor: instance.version.minor,
  placeholder_values: instance.values_text ?? toJson(instance.placeholder_values),
  bindings: instance.bindings === null ? null : toJson(instance.bindings),
  parent_page_block_id: instance.parent_page_block_id,
  order_index: orderIndex,
  created_at: now,
  updated_at: now,
});

const libraryQuery = (db: Kysely<DB>, ids: number[]) =>
  db
    .selectFrom('blocks as b')
    .innerJoin('block_revisions as cur', 'cur.id', 'b.current_revision_id')
    .select(['b.id', 'b.name', 'b.kind', 'cur.major', 'cur.minor'])
    .where('b.id', 'in', ids);
type InsertedRow = { id: number; placeholder_values: string; bindings: string | null };
export type LibraryRow = Awaited<ReturnType<ReturnType<typeof libraryQuery>['execute']>>[number];

/**
 * A page write's instances: their one INSERT, and their blocks as the write's
 * transaction sees them (for the answer built from what was written).
 */
export function instanceInserts(database: Database) {
  const { dialect } = database;
  // Where a JSON column keeps a text of its own (dialect.compactJson), an answer built
  // from the rows takes it from RETURNING, as a read would; elsewhere the text sent is kept.
  const jsonBack = dialect.compactJson !== undefined;
  const insertRows = async (
    trx: Kysely<DB>,
    pageId: number,
    instances: NewInstance[],
    from: number,
    now: string,
  ): Promise<Array<{ id: number; placeholder_values: string; bindings: string | null }>> => {
    if (instances.length === 0) return [];
    const rows = instances.map((instance, i) => instanceRow(pageId, instance, from + i, now));
    const params: unknown[] = [pageId, now];
    for (const row of rows)
      params.push(
        row.block_id,
        row.revision_id,
        row.major,
        row.minor,
        row.placeholder_values,
        row.bindings,
        row.parent_page_block_id,
        row.order_index,
      );
    const { rows: written } = await trx.executeQuery(insertOf(rows.length)(...params));
    if (jsonBack) return written;
    return written.map(({ id }, i) => ({
      id,
      placeholder_values: rows[i]!.placeholder_values,
      bindings: rows[i]!.bindings,
    }));
  };

  // The insert of n instances, built and compiled once per n (a request carries at most
  // 500): building it through Kysely each time cost as much as running it.
  const inserts = new Map<number, (...params: unknown[]) => CompiledQuery<InsertedRow>>();
  const insertOf = (n: number) => {
    let insert = inserts.get(n);
    if (!insert) {
      // While compiling, slots stand in for every value: the types are the columns' own.
      insert = compiledOnce(2 + 8 * n, (...p: unknown[]): Compilable<InsertedRow> => {
        const now = p[1] as string;
        const rows = Array.from({ length: n }, (_, i) => {
          const at = 2 + 8 * i;
          return {
            page_id: p[0] as number,
            block_id: p[at] as number,
            revision_id: p[at + 1] as number,
            major: p[at + 2] as number,
            minor: p[at + 3] as number,
            placeholder_values: p[at + 4] as string,
            bindings: p[at + 5] as string | null,
            parent_page_block_id: p[at + 6] as number | null,
            order_index: p[at + 7] as number,
            created_at: now,
            updated_at: now,
          };
        });
        const query = database.db.insertInto('page_blocks').values(rows);
        return jsonBack ? query.returning(['id', 'placeholder_values', 'bindings']) : query.returning(['id']);
      });
      if (inserts.size < 64) inserts.set(n, insert);
    }
    return insert;
  };

  // The blocks of a write's instances as its transaction sees them: compiled once per number of
  // ids (the ids are its only parameters), run on the transaction's connection.
  const libraryQueries = new Map<number, CompiledQuery<LibraryRow>>();
  const libraryOf = async (trx: Kysely<DB>, ids: number[]) => {
    let compiled = libraryQueries.get(ids.length);
    if (!compiled) {
      compiled = libraryQuery(database.db, ids).compile();
      if (libraryQueries.size < 64) libraryQueries.set(ids.length, compiled);
    }
    const { rows } = await trx.executeQuery<LibraryRow>({ ...compiled, parameters: ids });
    return new Map(rows.map((r) => [r.id, r]));
  };

  return { insertRows, libraryOf };
}
