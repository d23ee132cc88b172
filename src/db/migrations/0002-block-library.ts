import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

export async function up(db: Kysely<unknown>, d: Dialect): Promise<void> {
  const stamp = d.types.timestamp;

  for (const table of ['tags', 'layout_tags']) {
    await db.schema
      .createTable(table)
      .addColumn('id', d.types.id, (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .execute();
  }

  await db.schema
    .createTable('data_result_types')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('schema_json', d.types.json, (c) => c.notNull())
    .addColumn('stub', d.types.json, (c) => c.notNull())
    .addColumn('created_at', stamp, (c) => c.notNull())
    .addColumn('updated_at', stamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('data_sources')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('result_type_id', 'text', (c) => c.notNull().references('data_result_types.id').onDelete('restrict'))
    .addColumn('params_schema', d.types.json, (c) => c.notNull())
    .addColumn('created_at', stamp, (c) => c.notNull())
    .addColumn('updated_at', stamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('blocks')
    .addColumn('id', d.types.id, (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull().check(sqlIn('scope', ['global', 'user'])))
    .addColumn('kind', 'text', (c) => c.notNull().check(sqlIn('kind', ['content', 'layout'])))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('docs', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('block_type', 'text')
    .addColumn('cover_key', 'text')
    .addColumn('is_deprecated', d.types.bool, (c) => c.notNull().defaultTo(d.defaults.false))
    .addColumn('fork_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('forked_from_id', 'integer', (c) => c.references('blocks.id').onDelete('set null'))
    // The newest revision; null for a block created with neither template nor schema.
    .addColumn('current_revision_id', 'integer')
    .addColumn('created_at', stamp, (c) => c.notNull())
    .addColumn('updated_at', stamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('blocks_owner_id').on('blocks').column('owner_id').execute();
  await db.schema.createIndex('blocks_scope').on('blocks').columns(['scope', 'is_deprecated']).execute();

  await db.schema
    .createTable('block_revisions')
    .addColumn('id', d.types.id, (c) => c.primaryKey())
    .addColumn('block_id', 'integer', (c) => c.notNull().references('blocks.id').onDelete('cascade'))
    .addColumn('major', 'integer', (c) => c.notNull())
    .addColumn('minor', 'integer', (c) => c.notNull())
    .addColumn('template', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('css', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('js', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('schema_content', d.types.json, (c) => c.notNull())
    .addColumn('changelog', 'text')
    .addColumn('created_at', stamp, (c) => c.notNull())
    .addUniqueConstraint('block_revisions_version', ['block_id', 'major', 'minor'])
    .execute();

  // Which data sources a revision's binding slots name: a source in use cannot be deleted.
  await db.schema
    .createTable('block_revision_sources')
    .addColumn('revision_id', 'integer', (c) => c.notNull().references('block_revisions.id').onDelete('cascade'))
    .addColumn('source_id', 'text', (c) => c.notNull().references('data_sources.id').onDelete('restrict'))
    .addPrimaryKeyConstraint('block_revision_sources_pk', ['revision_id', 'source_id'])
    .execute();

  await db.schema
    .createTable('block_tags')
    .addColumn('block_id', 'integer', (c) => c.notNull().references('blocks.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('block_tags_pk', ['block_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('block_tags_tag_id').on('block_tags').column('tag_id').execute();

  await db.schema
    .createTable('favorites')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('block_id', 'integer', (c) => c.notNull().references('blocks.id').onDelete('cascade'))
    .addColumn('created_at', stamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('favorites_pk', ['user_id', 'block_id'])
    .execute();

  await db.schema
    .createTable('collections')
    .addColumn('id', d.types.id, (c) => c.primaryKey())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull().check(sqlIn('scope', ['global', 'user'])))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', stamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('collection_blocks')
    .addColumn('collection_id', 'integer', (c) => c.notNull().references('collections.id').onDelete('cascade'))
    .addColumn('block_id', 'integer', (c) => c.notNull().references('blocks.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('collection_blocks_pk', ['collection_id', 'block_id'])
    .execute();

  await db.schema
    .createTable('block_submissions')
    .addColumn('id', d.types.id, (c) => c.primaryKey())
    .addColumn('block_id', 'integer', (c) => c.notNull().references('blocks.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().check(sqlIn('status', ['pending', 'approved', 'rejected'])))
    .addColumn('reason', 'text')
    .addColumn('approved_block_id', 'integer', (c) => c.references('blocks.id').onDelete('set null'))
    .addColumn('created_at', stamp, (c) => c.notNull())
    .addColumn('decided_at', stamp)
    .execute();
  // At most one pending submission per block: settled by the database, not by a check.
  await db.schema
    .createIndex('block_submissions_one_pending')
    .on('block_submissions')
    .column('block_id')
    .unique()
    .where(sqlRaw("status = 'pending'"))
    .execute();

  await d.search.migrate(db);
}

function sqlIn(column: string, values: string[]): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;
}

function sqlRaw(text: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.raw(text)}`;
}
