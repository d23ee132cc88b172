import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/db/schema.js';
import { all, type World } from './world.js';

/**
 * Rows that put one user's object inside, under or onto another user's,
 * across the whole database (every sequence so far). Each query must find none.
 */
const CROSS_OWNER: [what: string, query: string][] = [
  [
    'a page in another user’s site',
    `select p.id as id from pages p join sites s on s.id = p.site_id where s.user_id <> p.owner_id`,
  ],
  [
    'a folder in another user’s site',
    `select f.id from folders f join sites s on s.id = f.site_id where s.user_id <> f.owner_id`,
  ],
  [
    'a page in another user’s folder, or in a folder of another site',
    `select p.id from pages p join folders f on f.id = p.folder_id where f.owner_id <> p.owner_id or f.site_id <> p.site_id`,
  ],
  [
    'a folder under another user’s folder, or under a folder of another site',
    `select f.id from folders f join folders up on up.id = f.parent_id where up.owner_id <> f.owner_id or up.site_id <> f.site_id`,
  ],
  [
    'another user’s private block on a page',
    `select pb.id from page_blocks pb join pages p on p.id = pb.page_id join blocks b on b.id = pb.block_id
      where b.scope = 'user' and b.owner_id <> p.owner_id`,
  ],
  [
    'another user’s private block in a collection, or a private block in a global one',
    `select cb.collection_id as id from collection_blocks cb join collections c on c.id = cb.collection_id join blocks b on b.id = cb.block_id
      where (c.scope = 'user' and b.scope = 'user' and b.owner_id <> c.owner_id) or (c.scope = 'global' and b.scope <> 'global')`,
  ],
];

const sorted = <T>(rows: T[]) => rows.map((r) => JSON.stringify(r)).sort();

/**
 * The database against the model: every object of the sequence's users, who
 * owns it and where it is, exactly; then the cross-owner rules over all rows.
 * Returns what differs (empty when the database is the model).
 */
export async function databaseDiff(db: Kysely<DB>, w: World, userIds: number[]): Promise<string[]> {
  const owner = (id: number) => userIds.indexOf(id);
  const diffs: string[] = [];
  const compare = (what: string, actual: unknown[], expected: unknown[]) => {
    const a = sorted(actual);
    const e = sorted(expected);
    const extra = a.filter((x) => !e.includes(x));
    const missing = e.filter((x) => !a.includes(x));
    if (extra.length || missing.length)
      diffs.push(
        `${what}: in the database and not the model ${extra.join(' ')}; in the model and not the database ${missing.join(' ')}`,
      );
  };

  // All at once: on PostgreSQL each is a round trip of its own.
  const mine = <T extends 'sites' | 'pages' | 'collections'>(table: T, column: 'user_id' | 'owner_id') =>
    sql<number>`(select id from ${sql.table(table)} where ${sql.ref(column)} in (${sql.join(userIds)}))`;
  const [sites, providers, folders, pages, instances, blocks, collections, members, crossing] = await Promise.all([
    db.selectFrom('sites').select(['id', 'user_id']).where('user_id', 'in', userIds).execute(),
    db.selectFrom('site_providers').select('site_id').where('site_id', 'in', mine('sites', 'user_id')).execute(),
    db
      .selectFrom('folders')
      .select(['id', 'owner_id', 'site_id', 'parent_id'])
      .where('owner_id', 'in', userIds)
      .execute(),
    db
      .selectFrom('pages')
      .select(['id', 'owner_id', 'site_id', 'folder_id', 'slug', 'is_published', 'version'])
      .where('owner_id', 'in', userIds)
      .execute(),
    db
      .selectFrom('page_blocks')
      .select(['id', 'page_id', 'block_id', 'order_index', 'major', 'minor'])
      .where('page_id', 'in', mine('pages', 'owner_id'))
      .execute(),
    db
      .selectFrom('blocks as b')
      .leftJoin('block_revisions as r', 'r.id', 'b.current_revision_id')
      .select(['b.id', 'b.owner_id', 'b.scope', 'r.major', 'r.minor', 'b.edit_version'])
      .where('b.owner_id', 'in', userIds)
      .execute(),
    db.selectFrom('collections').select(['id', 'owner_id', 'scope']).where('owner_id', 'in', userIds).execute(),
    db
      .selectFrom('collection_blocks')
      .select(['collection_id', 'block_id'])
      .where('collection_id', 'in', mine('collections', 'owner_id'))
      .execute(),
    sql
      .raw<{ what: string; id: number }>(
        CROSS_OWNER.map(([what, query]) => `select '${what}' as what, id from (${query}) as q`).join(' union all '),
      )
      .execute(db),
  ]);

  compare(
    'sites (id, owner)',
    sites.map((s) => [s.id, owner(s.user_id)]),
    all(w.sites).map((s) => [s.id, s.owner]),
  );
  compare(
    'sites with a provider',
    providers.map((p) => p.site_id),
    all(w.sites)
      .filter((s) => s.provider !== 'none')
      .map((s) => s.id),
  );
  compare(
    'folders (id, owner, site, parent)',
    folders.map((f) => [f.id, owner(f.owner_id), f.site_id, f.parent_id]),
    all(w.folders).map((f) => [f.id, f.owner, f.site, f.parent]),
  );
  compare(
    'pages (id, owner, site, folder, slug, published, version)',
    pages.map((p) => [
      p.id,
      owner(p.owner_id),
      p.site_id,
      p.folder_id,
      p.slug,
      Boolean(p.is_published),
      Number(p.version),
    ]),
    all(w.pages).map((p) => [p.id, p.owner, p.site, p.folder, p.slug, p.published, p.version]),
  );
  compare(
    'page instances (id, page, block, place, major, minor)',
    instances.map((i) => [i.id, i.page_id, i.block_id, i.order_index, i.major, i.minor]),
    all(w.pages).flatMap((p) => p.instances.map((i, index) => [i.id, p.id, i.block, index, i.major, i.minor])),
  );
  compare(
    'blocks (id, owner, scope, major, minor, edit version)',
    blocks.map((b) => [b.id, owner(b.owner_id), b.scope, b.major, b.minor, Number(b.edit_version)]),
    all(w.blocks).map((b) => [b.id, b.owner, b.scope, b.major, b.minor, b.edit]),
  );
  compare(
    'collections (id, owner, scope)',
    collections.map((c) => [c.id, owner(c.owner_id), c.scope]),
    all(w.collections).map((c) => [c.id, c.owner, c.scope]),
  );
  compare(
    'collection blocks (collection, block)',
    members.map((m) => [m.collection_id, m.block_id]),
    all(w.collections).flatMap((c) => c.blocks.map((b) => [c.id, b])),
  );
  if (crossing.rows.length) diffs.push(`across users: ${JSON.stringify(crossing.rows.slice(0, 10))}`);
  return diffs;
}
