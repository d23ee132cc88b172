import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';
import type { DB } from '../schema.js';

/**
 * Runs a write whose references the database's foreign keys check. A row it
 * points at may go between the service's check and the write (a delete racing
 * it): the foreign key refuses the write then, and `gone` names what went, as
 * the same request is answered when it was gone already. The constraint settles
 * the race; `gone` looks only after it did (the write's transaction is over by
 * then). `gone` answers undefined when it finds nothing missing: the violation
 * is thrown as it came.
 */
export async function invalidReference<T>(
  dialect: Dialect,
  write: () => Promise<T>,
  gone: () => Promise<Error | undefined>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!dialect.isForeignKeyViolation(error)) throw error;
    throw (await gone()) ?? error;
  }
}

type Referenced = 'sites' | 'folders' | 'blocks' | 'block_revisions' | 'collections' | 'layouts';

/** Which of `ids` have no row in `table` (after a write that referenced them failed). */
export async function missingIds(db: Kysely<DB>, table: Referenced, ids: number[]): Promise<Set<number>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Set();
  const found = await db.selectFrom(table).select('id').where('id', 'in', wanted).execute();
  const present = new Set(found.map((r) => r.id));
  return new Set(wanted.filter((id) => !present.has(id)));
}

/** Whether row `id` of `table` is gone (null: no reference, nothing gone). */
export async function isGone(db: Kysely<DB>, table: Referenced, id: number | null | undefined): Promise<boolean> {
  return id !== null && id !== undefined && (await missingIds(db, table, [id])).size > 0;
}
