import type { RenderableInstance, RenderingRepository } from '../../../modules/publishing/publishing.js';
import type { Kysely } from 'kysely';
import type { Database, PageVersions } from '../../dialects/dialect.js';
import type { DB } from '../../schema.js';
import { prepared } from '../../prepared.js';
import { bool, fromJson } from '../rows.js';
import { readAll } from '../../read-all.js';
import { RENDERED_COLUMNS, RENDERED_INSTANCE_COLUMNS } from './columns.js';
import { StoredJson } from '../../../shared/stored-json.js';

type Read = Awaited<ReturnType<ReturnType<typeof renderingReads>['page']>>;

/**
 * The three reads of a page to render. On PostgreSQL each also selects the
 * page's `content_version`, so that reads run at once on three connections can
 * be told apart when a write committed between them (see `page` below).
 */
function renderingReads(db: Kysely<DB>, readNow: Database['readNow'], versions: PageVersions | undefined) {
  const version = versions ? (pageId: number) => versions.of(pageId).as('v') : undefined;
  const pageRow = prepared(
    db,
    1,
    (id: number) =>
      db
        .selectFrom('pages')
        .select(RENDERED_COLUMNS)
        .$if(version !== undefined, (q) => q.select(version!(id)))
        .where('id', '=', id),
    readNow,
  );
  // Each instance with its block type, in page order.
  const instanceRows = prepared(
    db,
    1,
    (pageId: number) =>
      db
        .selectFrom('page_blocks as pb')
        .innerJoin('blocks as b', 'b.id', 'pb.block_id')
        .select(RENDERED_INSTANCE_COLUMNS)
        .$if(version !== undefined, (q) => q.select(version!(pageId)))
        .where('pb.page_id', '=', pageId)
        .orderBy('pb.order_index')
        .orderBy('pb.id'),
    readNow,
  );
  // The page's revisions, each once with its assets and its fields (every instance pinning
  // it has them), however many instances pin it: 200 instances of ten revisions carried
  // each text 200 times (bench B3).
  const revisionRows = prepared(
    db,
    1,
    (pageId: number) =>
      db
        .selectFrom('block_revisions as r')
        .select(['r.id', 'r.template', 'r.css', 'r.js', 'r.schema_content as schema_snapshot'])
        .$if(version !== undefined, (q) => q.select(version!(pageId)))
        .where('r.id', 'in', (eb) =>
          eb.selectFrom('page_blocks as pb').select('pb.revision_id').where('pb.page_id', '=', pageId),
        ),
    readNow,
  );

  return {
    async page(pageId: number) {
      // With readNow (SQLite), the three run now, one after the other, on one state.
      const [[row], rows, revisions] = await readAll(
        db,
        () => pageRow(pageId),
        () => instanceRows(pageId),
        () => revisionRows(pageId),
      );
      return { row, rows, revisions };
    },
  };
}

/** Whether the three reads saw one version of the page. */
function oneVersion({ row, rows, revisions }: Read): boolean {
  // SQLite's three run on one state; without the page there is nothing to show.
  if (!row || !('v' in row)) return true;
  // Without instances there is nothing to compare the page row's version with.
  return rows.length > 0 && rows[0]!.v === row.v && revisions[0]?.v === row.v;
}

export function renderingRepository({ db, dialect, readNow }: Database): RenderingRepository {
  // Only where the three reads may each see another state (PostgreSQL's three connections).
  const reads = renderingReads(db, readNow, dialect.roundTrips ? dialect.pageVersions : undefined);
  return {
    async page(pageId) {
      let read = await reads.page(pageId);
      // PostgreSQL: a write committed between the reads (the page row, or an
      // instance whose revision the revisions read did not see). Read again in
      // one snapshot; rare, so the common case keeps its three parallel reads.
      if (!oneVersion(read))
        read = await db
          .transaction()
          .setIsolationLevel('repeatable read')
          .setAccessMode('read only')
          .execute((trx) => renderingReads(trx, undefined, undefined).page(pageId));
      const { row, rows, revisions } = read;
      if (!row) return undefined;
      const byId = new Map(
        revisions.map((r) => [
          r.id,
          {
            assets: { id: r.id, template: r.template, css: r.css, js: r.js },
            snapshot: fromJson<RenderableInstance['schema_snapshot']>(r.schema_snapshot ?? '[]'),
          },
        ]),
      );
      // The version only told the reads apart; the page itself does not show it.
      const { v: _version, ...page } = row;
      return {
        page: { ...page, is_published: bool(row.is_published) },
        instances: rows.map((r) => {
          const revision = byId.get(r.revision_id)!;
          return {
            id: r.id,
            parent_page_block_id: r.parent_page_block_id,
            block_id: r.block_id,
            block_type: r.block_type,
            kind: r.block_kind,
            version: { major: r.major, minor: r.minor },
            // As stored: rendering keys its cache by the text and sends it to a thread as is.
            placeholder_values: StoredJson.fromText<Record<string, unknown>>(r.placeholder_values),
            bindings: r.bindings === null ? null : fromJson(r.bindings),
            schema_snapshot: revision.snapshot,
            revision: revision.assets,
          };
        }),
      };
    },
    async stubs(sourceIds) {
      if (sourceIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('data_sources')
        .innerJoin('data_result_types', 'data_result_types.id', 'data_sources.result_type_id')
        .select(['data_sources.id', 'data_result_types.stub'])
        .where('data_sources.id', 'in', sourceIds)
        .execute();
      return new Map(rows.map((r) => [r.id, fromJson(r.stub)]));
    },
    async revisions(ids) {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('block_revisions as r')
        .innerJoin('blocks as b', 'b.id', 'r.block_id')
        .select(['r.id', 'r.template', 'r.css', 'r.js', 'b.block_type'])
        .where('r.id', 'in', ids)
        .execute();
      return new Map(rows.map((r) => [r.id, r]));
    },
  };
}
