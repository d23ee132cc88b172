import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

export async function up(db: Kysely<unknown>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', d.types.id, (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('is_admin', d.types.bool, (c) => c.notNull().defaultTo(d.defaults.false))
    .addColumn('is_blocked', d.types.bool, (c) => c.notNull().defaultTo(d.defaults.false))
    .addColumn('created_at', d.types.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', d.types.timestamp, (c) => c.notNull())
    .addColumn('expires_at', d.types.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', d.types.id, (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', d.types.timestamp, (c) => c.notNull())
    .addColumn('last_used_at', d.types.timestamp)
    .execute();
  await db.schema.createIndex('api_keys_user_id').on('api_keys').column('user_id').execute();

  await db.schema
    .createTable('sites')
    .addColumn('id', d.types.id, (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('domain', 'text')
    // References layouts once they exist (a later migration); a plain column until then.
    .addColumn('layout_id', 'integer')
    .addColumn('created_at', d.types.timestamp, (c) => c.notNull())
    .addColumn('updated_at', d.types.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sites_user_id').on('sites').column('user_id').execute();
}
