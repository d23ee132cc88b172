import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/**
 * `block_revisions.migrations`: the value migrations a block update carried
 * from the revision before to this one (issue 29, point 5), as JSON. Every
 * revision stored already has none: `[]`.
 */
export async function up(db: Kysely<unknown>, d: Dialect): Promise<void> {
  await db.schema
    .alterTable('block_revisions')
    .addColumn('migrations', d.types.json, (c) => c.notNull().defaultTo(sql`'[]'`))
    .execute();
}
