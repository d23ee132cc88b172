import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/**
 * The login and registration throttle's counters, in the database so that
 * every instance of the service counts the same failures.
 */
export async function up(db: Kysely<unknown>, _d: Dialect): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('expire', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limits_expire').on('rate_limits').column('expire').execute();
}
