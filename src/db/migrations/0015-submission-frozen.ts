import { sql, type Kysely } from 'kysely';

/**
 * A submission keeps what was submitted: the revision (its template, CSS, JS
 * and fields) and the block's own texts and type, which change without a new
 * revision. The approval copies these, never what the author changed since.
 * Rows already pending take the block as it stands now, which is what an
 * approval would have copied before; decided ones keep none (nothing records
 * what their authors submitted).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('block_submissions')
    .addColumn('revision_id', 'integer', (c) => c.references('block_revisions.id').onDelete('cascade'))
    .execute();
  for (const column of ['block_name', 'block_description', 'block_docs', 'block_type'])
    await db.schema.alterTable('block_submissions').addColumn(column, 'text').execute();
  await sql`
    update block_submissions set
      revision_id = (select b.current_revision_id from blocks b where b.id = block_submissions.block_id),
      block_name = (select b.name from blocks b where b.id = block_submissions.block_id),
      block_description = (select b.description from blocks b where b.id = block_submissions.block_id),
      block_docs = (select b.docs from blocks b where b.id = block_submissions.block_id),
      block_type = (select b.block_type from blocks b where b.id = block_submissions.block_id)
    where status = 'pending'`.execute(db);
}
