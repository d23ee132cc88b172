import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/**
 * The job queue of the embedded database (`TableQueue`): work that must
 * happen later, stored in the same file so that it survives a restart.
 * PostgreSQL keeps its jobs in pg-boss's own schema: nothing here.
 */
export async function up(db: Kysely<unknown>, d: Dialect): Promise<void> {
  if (!d.jobsTable) return;
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('retry_limit', 'integer', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_due').on('jobs').columns(['state', 'run_at']).execute();
}
