import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/**
 * A page's history (see src/db/repositories/pages/README.md, Versions).
 * - `pages.version`: the number of the page's latest version.
 * - `page_block_states`: an instance as it stood (pin, parent, values,
 *   bindings), written only when it changed: a version that changes one value
 *   of a 200-block page writes one state, not 200. No foreign key but the
 *   page's: the instance, its parent, its block and revision may go while the
 *   history still names them.
 * - `page_versions`: a version's metadata, who made it, and its instances in
 *   order as `[[instance id, state id], ...]` (text, the smallest form).
 * Every page existing already gets its version 1, made of what it holds now.
 */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const stamp = d.types.timestamp;
  await db.schema
    .alterTable('pages')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('page_block_states')
    .addColumn('id', d.types.id, (c) => d.primaryId(c))
    .addColumn('page_id', 'integer', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('page_block_id', 'integer', (c) => c.notNull())
    .addColumn('parent_page_block_id', 'integer')
    .addColumn('block_id', 'integer', (c) => c.notNull())
    .addColumn('revision_id', 'integer', (c) => c.notNull())
    .addColumn('major', 'integer', (c) => c.notNull())
    .addColumn('minor', 'integer', (c) => c.notNull())
    .addColumn('placeholder_values', d.types.json, (c) => c.notNull())
    .addColumn('bindings', d.types.json)
    .execute();
  // An instance's latest state: max(id) by page_block_id.
  await db.schema
    .createIndex('page_block_states_instance')
    .on('page_block_states')
    .columns(['page_block_id', 'id'])
    .execute();
  await db.schema.createIndex('page_block_states_page').on('page_block_states').column('page_id').execute();

  await db.schema
    .createTable('page_versions')
    .addColumn('page_id', 'integer', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('created_at', stamp, (c) => c.notNull())
    .addColumn('actor_user_id', 'integer')
    .addColumn('actor_via', 'text', (c) => c.notNull())
    .addColumn('actor_key_prefix', 'text')
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('published', d.types.bool, (c) => c.notNull().defaultTo(d.defaults.false))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('site_id', 'integer')
    .addColumn('folder_id', 'integer')
    .addColumn('slug', 'text')
    .addColumn('meta_title', 'text')
    .addColumn('meta_description', 'text')
    .addColumn('meta_keywords', 'text')
    .addColumn('meta_robots', 'text')
    .addColumn('blocks', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_versions_pk', ['page_id', 'number'])
    .execute();

  // Version 1 of every page there is: its instances' states, then the version naming them.
  await sql`insert into page_block_states (page_id, page_block_id, parent_page_block_id, block_id, revision_id,
      major, minor, placeholder_values, bindings)
    select page_id, id, parent_page_block_id, block_id, revision_id, major, minor, placeholder_values, bindings
    from page_blocks order by page_id, order_index, id`.execute(db);
  const states = await sql<{ page_id: number; page_block_id: number; id: number }>`
    select s.page_id, s.page_block_id, s.id from page_block_states s
    join page_blocks pb on pb.id = s.page_block_id order by s.page_id, pb.order_index, pb.id`.execute(db);
  const lists = new Map<number, Array<[number, number]>>();
  for (const s of states.rows) {
    const list = lists.get(Number(s.page_id)) ?? [];
    list.push([Number(s.page_block_id), Number(s.id)]);
    lists.set(Number(s.page_id), list);
  }
  const pages = await sql<{ id: number; owner_id: number; updated_at: unknown; is_published: unknown }>`
    select id, owner_id, updated_at, is_published from pages`.execute(db);
  for (const page of pages.rows) {
    const id = Number(page.id);
    await sql`insert into page_versions (page_id, number, created_at, actor_user_id, actor_via, summary, published,
        name, site_id, folder_id, slug, meta_title, meta_description, meta_keywords, meta_robots, blocks)
      select id, 1, updated_at, owner_id, 'system', 'history starts', is_published,
        name, site_id, folder_id, slug, meta_title, meta_description, meta_keywords, meta_robots,
        ${JSON.stringify(lists.get(id) ?? [])}
      from pages where id = ${id}`.execute(db);
  }
  await sql`update pages set version = 1`.execute(db);
}
