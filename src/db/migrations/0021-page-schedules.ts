import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/**
 * A page's scheduled publication: when, by whom, the body publish will be
 * sent, the job that will run it (null once it ran or was unscheduled), and
 * the outcome of the last run with its tries and the provider's message.
 */
export async function up(db: Kysely<unknown>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('page_schedules')
    .addColumn('page_id', 'integer', (c) => c.primaryKey().references('pages.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('publish_at', d.types.timestamp, (c) => c.notNull())
    .addColumn('input', d.types.json, (c) => c.notNull())
    .addColumn('job_id', 'text')
    .addColumn('outcome', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('ran_at', d.types.timestamp)
    .addColumn('created_at', d.types.timestamp, (c) => c.notNull())
    .execute();
}
