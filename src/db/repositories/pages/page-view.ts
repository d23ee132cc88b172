import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { PageBlockView, PageView } from '../../../modules/pages/pages.js';
import type { Database, Dialect } from '../../dialects/dialect.js';
import type { DB } from '../../schema.js';
import { prepared } from '../../prepared.js';
import { hasOutdatedSql, instancesWithBlocks } from './page-reads.js';
import { bool } from '../rows.js';
import { isOutdatedSql, updateStatusSql } from '../update-status.js';
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

// pageBody's blockBody, as format() writes it (both databases have format(), %s each value as text).
const BLOCK_FORMAT =
  '{"id":%s,"block":{"id":%s,"name":%s,"kind":%s},"order_index":%s,"placeholder_values":%s,"bindings":%s' +
  ',"parent_page_block_id":%s,"version":{"major":%s,"minor":%s},"update_status":"%s"}';

/**
 * A page's instances as its answer's `blocks` array, written by the database
 * byte for byte as `pageBody` writes a PageBlockView (the dialect's JsonText),
 * and `has_outdated_blocks` from the same rows: bringing twenty instance rows
 * into JavaScript, a native call and a dozen values each, was most of the read
 * of a page that was not kept (`npm run bench:miss`).
 */
function instancesAsJson(db: Kysely<DB>, { jsonText }: Dialect, pageId: number) {
  const { quoted, stored } = jsonText;
  const text = (ref: string) => sql<string>`cast(${sql.ref(ref)} as text)`;
  const orNull = (value: RawBuilder<string | null>) => sql<string>`coalesce(${value}, 'null')`;
  // One format() a row: each `||` copied the row's text so far (a quarter of the statement on SQLite).
  const part = sql<string>`format(${sql.lit(BLOCK_FORMAT)}, ${sql.join([
    text('pb.id'),
    text('b.id'),
    quoted('b.name'),
    quoted('b.kind'),
    text('pb.order_index'),
    stored('pb.placeholder_values'),
    orNull(stored('pb.bindings')),
    orNull(text('pb.parent_page_block_id')),
    text('pb.major'),
    text('pb.minor'),
    updateStatusSql('pb', 'cur'),
  ])})`;
  return instancesWithBlocks(db)
    .select([
      jsonText.joined(part, sql`pb.order_index, pb.id`).as('blocks'),
      jsonText.any(isOutdatedSql('pb', 'cur')).as('outdated'),
    ])
    .where('pb.page_id', '=', pageId)
    .as('i');
}

/**
 * The hot read of a page's answer (GET /pages/{id}): one statement, compiled
 * once, run past Kysely where the database allows (`readNow`): only the columns
 * the answer shows (never the pinned revisions' 5 KB of fields), and with its
 * blocks, their JSON written by the database. One
 * statement is one round trip on PostgreSQL, and one state on both databases:
 * the page's row, its version and its instances read together.
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
  const withInstances = prepared(
    db,
    1,
    (id: number) =>
      db
        .selectFrom(['pages', instancesAsJson(db, database.dialect, id)])
        .select([
          ...qualified(HEAD_COLUMNS),
          sql<boolean | number>`coalesce(i.outdated, ${sql.lit(false)})`.as('has_outdated_blocks'),
          sql<string>`coalesce('[' || i.blocks || ']', '[]')`.as('blocks'),
        ])
        .where('pages.id', '=', id),
    database.readNow,
  );
  const compact = database.dialect.compactJson;

  return async (id: number, withBlocks: boolean): Promise<PageView | undefined> => {
    if (!withBlocks) {
      const [page] = await head(id);
      return (
        page && {
          ...page,
          is_published: bool(page.is_published),
          has_outdated_blocks: bool(page.has_outdated_blocks),
          blocks: null,
        }
      );
    }
    const [row] = await withInstances(id);
    if (!row) return undefined;
    const { blocks, ...page } = row;
    return {
      ...page,
      is_published: bool(page.is_published),
      has_outdated_blocks: bool(page.has_outdated_blocks),
      blocks: { json: compact ? compact(blocks) : blocks },
    };
  };
}
