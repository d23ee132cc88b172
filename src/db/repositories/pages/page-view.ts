import type { Kysely } from 'kysely';
import type { PageBlockView, PageView } from '../../../modules/pages/pages.js';
import type { Database, Dialect } from '../../dialects/dialect.js';
import type { DB } from '../../schema.js';
import { prepared } from '../../prepared.js';
import { hasOutdatedSql, instancesWithBlocks } from './page-reads.js';
import { bool } from '../rows.js';
import { updateStatusSql } from '../update-status.js';
import { HEAD_COLUMNS, INSTANCE_VIEW_COLUMNS, qualified } from './columns.js';

/** A page's instances as its answer shows them, in order, with their blocks' names and update statuses. */
export const instancesView = (db: Kysely<DB>, pageId: number) =>
  instancesWithBlocks(db)
    .select([...INSTANCE_VIEW_COLUMNS, updateStatusSql('pb', 'cur').as('update_status')])
    .where('pb.page_id', '=', pageId)
    .orderBy('pb.order_index')
    .orderBy('pb.id');
export type InstanceViewRow = Awaited<ReturnType<ReturnType<typeof instancesView>['execute']>>[number];

/** An instance row as the answer shows it (`compact`: see Dialect.compactJson). */
export const blockView =
  (compact: Dialect['compactJson']) =>
  (r: InstanceViewRow): PageBlockView => ({
    id: r.id,
    block: { id: r.block_id, name: r.block_name, kind: r.block_kind },
    order_index: r.order_index,
    placeholder_values_json: compact ? compact(r.placeholder_values) : r.placeholder_values,
    bindings_json: r.bindings === null ? null : compact ? compact(r.bindings) : r.bindings,
    parent_page_block_id: r.parent_page_block_id,
    version: { major: r.major, minor: r.minor },
    update_status: r.update_status as PageBlockView['update_status'],
  });

/**
 * The hot reads of a page's answer (GET /pages/{id}, and the answers of page
 * writes): only the columns it shows (never the 5 KB field snapshots), compiled
 * once, run past Kysely where the database allows (`readNow`), and the stored
 * JSON text handed on as text.
 */
export function pageViewReader(database: Pick<Database, 'db' | 'dialect' | 'readNow'>, db: Kysely<DB> = database.db) {
  const head = prepared(
    db,
    1,
    (id: number) =>
      db
        .selectFrom('pages')
        .select([...qualified(HEAD_COLUMNS), hasOutdatedSql.as('has_outdated_blocks')])
        .where('pages.id', '=', id),
    database.readNow,
  );
  const instances = prepared(db, 1, (pageId: number) => instancesView(db, pageId), database.readNow);
  const compact = database.dialect.compactJson;

  return async (id: number, withBlocks: boolean): Promise<PageView | undefined> => {
    // Both called before either is awaited: with readNow, they run now, one after the other, on one state.
    const [pages, rows] = await Promise.all([head(id), withBlocks ? instances(id) : undefined]);
    const page = pages[0];
    if (!page) return undefined;
    const blocks = rows?.map(blockView(compact)) ?? null;
    return {
      ...page,
      is_published: bool(page.is_published),
      has_outdated_blocks: bool(page.has_outdated_blocks),
      blocks,
    };
  };
}
