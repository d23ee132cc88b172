import { sql, type Kysely } from 'kysely';
import type { Page, PageBlock, PagesRepository } from '../../../modules/pages/pages.js';
import type { Database } from '../../dialects/dialect.js';
import type { DB } from '../../schema.js';
import { StoredJson } from '../../../shared/stored-json.js';
import { bool, countOf, fromJson } from '../rows.js';
import { prepared } from '../../prepared.js';
import { readAll } from '../../read-all.js';
import { isOutdatedSql, updateStatusSql } from '../update-status.js';
import { INSTANCE_COLUMNS, PAGE_COLUMNS, qualified } from './columns.js';

/** Does any instance of the page lag behind its block's current revision? (the same rule as usages) */
export const hasOutdatedSql = sql<boolean>`exists (
  select 1 from page_blocks pb
  join blocks b on b.id = pb.block_id
  join block_revisions cur on cur.id = b.current_revision_id
  where pb.page_id = pages.id and ${isOutdatedSql('pb', 'cur')}
)`;

/**
 * Published, and its current version is not one that went to the provider:
 * the site shows an older state (`has_unpublished_changes`).
 */
export const hasUnpublishedChangesSql = sql<boolean>`(pages.is_published = ${sql.lit(true)} and not exists (
  select 1 from page_versions v where v.page_id = pages.id and v.number = pages.version and v.published = ${sql.lit(true)}
))`;

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
  instancesWithBlocks(db)
    .innerJoin('block_revisions as pin', 'pin.id', 'pb.revision_id')
    .select([...INSTANCE_COLUMNS, updateStatusSql('pb', 'cur').as('update_status')]);

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

/** The page's row as the module's Page has it, with whether any instance is outdated. */
const PAGE_SELECTION = [...qualified(PAGE_COLUMNS), hasOutdatedSql.as('has_outdated_blocks')];

/** The repository's row reads (the answer's are page-view.ts'), over `db` (the database or a transaction already open). */
export function pageReads(
  database: Pick<Database, 'db' | 'dialect' | 'readNow'>,
  db: Kysely<DB>,
): Pick<PagesRepository, 'find' | 'list' | 'search' | 'blocks' | 'findBlock'> {
  const { dialect, readNow } = database;
  const blocks = pageBlocksReader(db, readNow);
  const findPage = prepared(
    db,
    1,
    (id: number) => db.selectFrom('pages').select(PAGE_SELECTION).where('pages.id', '=', id),
    readNow,
  );
  const pageQuery = (ownerId: number) => db.selectFrom('pages').where('pages.owner_id', '=', ownerId);

  return {
    async find(id) {
      const [row] = await findPage(id);
      return row && toPage(row);
    },

    async list(query) {
      let base = pageQuery(query.ownerId);
      if (query.hasOutdated) base = base.where(hasOutdatedSql);
      if (query.hasUnpublishedChanges) base = base.where(hasUnpublishedChangesSql);
      if (query.siteId !== undefined) base = base.where('pages.site_id', '=', query.siteId);
      const [rows, total] = await readAll(
        db,
        () => base.select(PAGE_SELECTION).orderBy('pages.id').limit(query.limit).offset(query.offset).execute(),
        () => base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst(),
      );
      return { rows: rows.map(toPage), total: countOf(total) };
    },

    async search(query) {
      const base = db
        .selectFrom(dialect.pageSearch.matches(query.terms).as('m'))
        .innerJoin('pages', 'pages.id', 'm.page_id')
        .where('pages.owner_id', '=', query.ownerId);
      const [rows, total] = await readAll(
        db,
        () =>
          base
            .select(PAGE_SELECTION)
            .orderBy('m.score')
            .orderBy('pages.id')
            .limit(query.limit)
            .offset(query.offset)
            .execute(),
        () => base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst(),
      );
      return { rows: rows.map(toPage), total: countOf(total) };
    },

    blocks: (pageId) => blocks.all(pageId),

    findBlock: (pageId, pageBlockId) => blocks.one(pageId, pageBlockId),
  };
}
