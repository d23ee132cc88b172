import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

export async function up(db: Kysely<unknown>, d: Dialect): Promise<void> {
  const stamp = d.types.timestamp;

  await db.schema
    .createTable('page_types')
    .addColumn('kind', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('layouts')
    .addColumn('id', d.types.id, (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('site_id', 'integer', (c) => c.references('sites.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('template', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('css', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('js', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('fork_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('forked_from_id', 'integer', (c) => c.references('layouts.id').onDelete('set null'))
    .addColumn('created_at', stamp, (c) => c.notNull())
    .addColumn('updated_at', stamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('layout_layout_tags')
    .addColumn('layout_id', 'integer', (c) => c.notNull().references('layouts.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('layout_tags.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('layout_layout_tags_pk', ['layout_id', 'tag_id'])
    .execute();

  await db.schema
    .createTable('folders')
    .addColumn('id', d.types.id, (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('site_id', 'integer', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('parent_id', 'integer', (c) => c.references('folders.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', stamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('pages')
    .addColumn('id', d.types.id, (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // A deleted site leaves its pages without one: the "page has no site" state.
    .addColumn('site_id', 'integer', (c) => c.references('sites.id').onDelete('set null'))
    .addColumn('folder_id', 'integer', (c) => c.references('folders.id').onDelete('set null'))
    .addColumn('kind', 'text', (c) => c.notNull().references('page_types.kind'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text')
    .addColumn('meta_title', 'text')
    .addColumn('meta_description', 'text')
    .addColumn('meta_keywords', 'text')
    .addColumn('meta_robots', 'text')
    .addColumn('is_published', d.types.bool, (c) => c.notNull().defaultTo(d.defaults.false))
    .addColumn('external_id', 'text')
    .addColumn('external_slug', 'text')
    .addColumn('published_at', stamp)
    .addColumn('publication_updated_at', stamp)
    .addColumn('created_at', stamp, (c) => c.notNull())
    .addColumn('updated_at', stamp, (c) => c.notNull())
    .execute();
  // A slug is unique within its site: a race between two writers is settled here.
  await db.schema.createIndex('pages_site_slug').on('pages').columns(['site_id', 'slug']).unique().execute();
  await db.schema.createIndex('pages_owner_id').on('pages').column('owner_id').execute();

  await db.schema
    .createTable('page_blocks')
    .addColumn('id', d.types.id, (c) => c.primaryKey())
    .addColumn('page_id', 'integer', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    // Restrict: a block that stands on pages cannot be deleted (409), whatever the code checks first.
    .addColumn('block_id', 'integer', (c) => c.notNull().references('blocks.id').onDelete('restrict'))
    .addColumn('revision_id', 'integer', (c) => c.notNull().references('block_revisions.id').onDelete('restrict'))
    .addColumn('major', 'integer', (c) => c.notNull())
    .addColumn('minor', 'integer', (c) => c.notNull())
    .addColumn('schema_snapshot', d.types.json, (c) => c.notNull())
    .addColumn('placeholder_values', d.types.json, (c) => c.notNull())
    .addColumn('bindings', d.types.json)
    .addColumn('parent_page_block_id', 'integer', (c) => c.references('page_blocks.id').onDelete('cascade'))
    .addColumn('order_index', 'integer', (c) => c.notNull())
    .addColumn('created_at', stamp, (c) => c.notNull())
    .addColumn('updated_at', stamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('page_blocks_page_id').on('page_blocks').columns(['page_id', 'order_index']).execute();
  await db.schema.createIndex('page_blocks_block_id').on('page_blocks').column('block_id').execute();

  await db.schema
    .createTable('site_providers')
    .addColumn('site_id', 'integer', (c) => c.primaryKey().references('sites.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('base_url', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('updated_at', stamp, (c) => c.notNull())
    .execute();

  await sql`insert into page_types (kind, title) values ('article', 'Article'), ('template', 'Template'), ('layout', 'Layout')`.execute(
    db,
  );
}
