import { sql, type Kysely } from 'kysely';
import type { NewInstance, Page, PageBlock } from '../../../modules/pages/pages.js';
import type { Database, Dialect } from '../../dialects/dialect.js';
import type { DB } from '../../schema.js';
import { StoredJson } from '../../../shared/stored-json.js';
import { bool, fromJson, toJson } from '../rows.js';
import { prepared } from '../../prepared.js';
import { isOutdatedSql, updateStatusSql } from '../update-status.js';

export const PAGE_COLUMNS = [
  'pages.id',
  'pages.owner_id',
  'pages.kind',
  'pages.name',
  'pages.site_id',
  'pages.folder_id',
  'pages.slug',
  'pages.meta_title',
  'pages.meta_description',
  'pages.meta_keywords',
  'pages.meta_robots',
  'pages.is_published',
  'pages.external_id',
  'pages.external_slug',
  'pages.published_at',
  'pages.publication_updated_at',
  'pages.publication_error',
  'pages.publication_error_at',
  'pages.created_at',
  'pages.updated_at',
] as const;

/** Does any instance of the page lag behind its block's current revision? (the same rule as usages) */
export const hasOutdatedSql = sql<boolean>`exists (
  select 1 from page_blocks pb
  join blocks b on b.id = pb.block_id
  join block_revisions cur on cur.id = b.current_revision_id
  where pb.page_id = pages.id and ${isOutdatedSql('pb', 'cur')}
)`;

export function toPage(row: Record<string, unknown>): Page {
  return {
    ...(row as unknown as Page),
    is_published: bool(row.is_published as number),
    has_outdated_blocks: bool(row.has_outdated_blocks as number),
  };
}

/** A page's instances with their blocks and the blocks' current revisions (`pb`, `b`, `cur`). */
export const instancesWithBlocks = (db: Kysely<DB>) =>
  db
    .selectFrom('page_blocks as pb')
    .innerJoin('blocks as b', 'b.id', 'pb.block_id')
    .innerJoin('block_revisions as cur', 'cur.id', 'b.current_revision_id');

const blocksQuery = (db: Kysely<DB>) =>
  instancesWithBlocks(db).select([
    'pb.id',
    'pb.page_id',
    'pb.block_id',
    'b.name as block_name',
    'b.kind as block_kind',
    'b.block_type',
    'pb.revision_id',
    'pb.order_index',
    'pb.placeholder_values',
    'pb.bindings',
    'pb.parent_page_block_id',
    'pb.major',
    'pb.minor',
    'pb.schema_snapshot',
    'cur.major as cur_major',
    'cur.minor as cur_minor',
    updateStatusSql('pb', 'cur').as('update_status'),
  ]);

type BlockRow = Awaited<ReturnType<ReturnType<typeof blocksQuery>['executeTakeFirstOrThrow']>>;

function toPageBlock(r: BlockRow): PageBlock {
  return {
    id: r.id,
    page_id: r.page_id,
    block: { id: r.block_id, name: r.block_name, kind: r.block_kind, block_type: r.block_type },
    revision_id: r.revision_id,
    order_index: r.order_index,
    placeholder_values: fromJson(r.placeholder_values),
    bindings: r.bindings === null ? null : fromJson(r.bindings),
    parent_page_block_id: r.parent_page_block_id,
    version: { major: r.major, minor: r.minor },
    library_version: { major: r.cur_major, minor: r.cur_minor },
    update_status: r.update_status as PageBlock['update_status'],
    // Parsed only when looked at (value checks, upgrades): parsing every instance's
    // fields was a tenth of a page read (bench B1).
    schema_snapshot: StoredJson.fromText(r.schema_snapshot),
  };
}

/** The instances of a page in order, in one query (compiled once per database). */
export function pageBlocksReader(db: Kysely<DB>, readNow?: Database['readNow']) {
  const all = prepared(
    db,
    1,
    (pageId: number) => blocksQuery(db).where('pb.page_id', '=', pageId).orderBy('pb.order_index').orderBy('pb.id'),
    readNow,
  );
  const one = prepared(
    db,
    2,
    (pageId: number, id: number) => blocksQuery(db).where('pb.page_id', '=', pageId).where('pb.id', '=', id),
    readNow,
  );
  return {
    all: async (pageId: number) => (await all(pageId)).map(toPageBlock),
    one: async (pageId: number, id: number) => {
      const [row] = await one(pageId, id);
      return row && toPageBlock(row);
    },
  };
}

export const instanceRow = (pageId: number, instance: NewInstance, orderIndex: number, now: string) => ({
  page_id: pageId,
  block_id: instance.block_id,
  revision_id: instance.revision_id,
  major: instance.version.major,
  minor: instance.version.minor,
  // The pinned revision's own fields (revisions never change): copied by the database rather
  // than sent, 5 KB an instance, and parsed again as jsonb on PostgreSQL.
  schema_snapshot: instance.snapshot_from_revision
    ? sql<string>`(select schema_content from block_revisions where id = ${instance.revision_id})`
    : instance.schema_snapshot.text,
  placeholder_values: toJson(instance.placeholder_values),
  bindings: instance.bindings === null ? null : toJson(instance.bindings),
  parent_page_block_id: instance.parent_page_block_id,
  order_index: orderIndex,
  created_at: now,
  updated_at: now,
});

/**
 * Rewrites the page's order_index as 0..n-1 in the given order. The unique
 * (page_id, order_index) index holds at every row: the old places are first
 * moved out of the way, to negatives (a one-to-one map, so no two collide).
 * Then one statement gives every instance its place from the list of ids (an
 * update per instance was a round trip each: 20 instances, 20 statements).
 */
export async function writeOrder(db: Kysely<DB>, dialect: Dialect, pageId: number, ids: number[], now: string) {
  await db
    .updateTable('page_blocks')
    .set({ order_index: sql<number>`-1 - order_index` })
    .where('page_id', '=', pageId)
    .execute();
  if (ids.length === 0) return;
  await sql`update page_blocks set order_index = o.place - 1, updated_at = ${now} from ${dialect.numberedIds(ids)}
    where page_blocks.id = o.id and page_blocks.page_id = ${pageId}`.execute(db);
}
