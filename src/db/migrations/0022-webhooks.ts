import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/**
 * Webhooks: a user's subscriptions (URL, events, the signing key), the
 * outbox of deliveries (one row per event and subscription, written in the
 * transaction of the change that caused it, with the exact body that is
 * signed and sent), and each attempt at a delivery (status, time, duration,
 * a bounded excerpt of the answer).
 */
export async function up(db: Kysely<unknown>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', d.types.id, (c) => d.primaryId(c))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    // JSON array of event types, as text: read whole, never searched in SQL.
    .addColumn('events', 'text', (c) => c.notNull())
    // The signing key's bytes, base64 (the `whsec_` form is shown once, at creation or rotation).
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabled', d.types.bool, (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_at', d.types.timestamp)
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', d.types.timestamp, (c) => c.notNull())
    .addColumn('updated_at', d.types.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_user_id').on('webhooks').column('user_id').execute();

  await db.schema
    .createTable('webhook_deliveries')
    // The Standard Webhooks message id (`webhook-id`): the receiver's key to drop a repeat.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event', 'text', (c) => c.notNull())
    // The exact bytes signed and sent, as text (a JSON column could reorder them).
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('response_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', d.types.timestamp, (c) => c.notNull())
    .addColumn('updated_at', d.types.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_webhook')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('at', d.types.timestamp, (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('response_excerpt', 'text')
    .addPrimaryKeyConstraint('webhook_attempts_pk', ['delivery_id', 'attempt'])
    .execute();
}
