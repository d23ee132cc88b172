import { sql } from 'kysely';
import type { RenderableInstance, RenderingRepository } from '../../modules/publishing/publishing.js';
import type { Database } from '../dialects/dialect.js';
import { prepared } from '../prepared.js';
import { bool, fromJson } from './rows.js';
import { readAll } from '../read-all.js';

export function renderingRepository({ db }: Database): RenderingRepository {
  const pageRow = prepared(db, 1, (id: number) =>
    db
      .selectFrom('pages')
      .select([
        'id',
        'owner_id',
        'kind',
        'name',
        'site_id',
        'slug',
        'meta_title',
        'meta_description',
        'is_published',
        'external_id',
        'external_slug',
        'published_at',
        'publication_updated_at',
        'publication_error',
        'publication_error_at',
      ])
      .where('id', '=', id),
  );
  // Each instance with its block type and its pinned revision's assets, in page order.
  const instanceRows = prepared(db, 1, (pageId: number) =>
    db
      .selectFrom('page_blocks as pb')
      .innerJoin('blocks as b', 'b.id', 'pb.block_id')
      .innerJoin('block_revisions as r', 'r.id', 'pb.revision_id')
      .select([
        'pb.id',
        'pb.parent_page_block_id',
        'pb.block_id',
        'b.block_type',
        'b.kind',
        'pb.major',
        'pb.minor',
        'pb.placeholder_values',
        'pb.bindings',
        'r.id as revision_id',
        // A revision's assets and a field snapshot come once, on their first instance; the
        // others share them. 200 instances of ten revisions carried each text 200 times (bench B3).
        sql<number>`dense_rank() over (order by pb.schema_snapshot)`.as('snapshot_group'),
        sql<
          string | null
        >`case when row_number() over (partition by pb.schema_snapshot order by pb.id) = 1 then pb.schema_snapshot end`.as(
          'schema_snapshot',
        ),
        sql<string | null>`case when row_number() over (partition by r.id order by pb.id) = 1 then r.template end`.as(
          'template',
        ),
        sql<string | null>`case when row_number() over (partition by r.id order by pb.id) = 1 then r.css end`.as('css'),
        sql<string | null>`case when row_number() over (partition by r.id order by pb.id) = 1 then r.js end`.as('js'),
      ])
      .where('pb.page_id', '=', pageId)
      .orderBy('pb.order_index')
      .orderBy('pb.id'),
  );

  return {
    async page(pageId) {
      const [[row], rows] = await readAll(
        db,
        () => pageRow(pageId),
        () => instanceRows(pageId),
      );
      if (!row) return undefined;
      const snapshots = new Map<number, RenderableInstance['schema_snapshot']>();
      const assets = new Map<number, { id: number; template: string; css: string; js: string }>();
      for (const r of rows) {
        if (r.schema_snapshot !== null) snapshots.set(r.snapshot_group, fromJson(r.schema_snapshot));
        if (r.template !== null)
          assets.set(r.revision_id, { id: r.revision_id, template: r.template, css: r.css ?? '', js: r.js ?? '' });
      }
      return {
        page: { ...row, is_published: bool(row.is_published) },
        instances: rows.map((r) => ({
          id: r.id,
          parent_page_block_id: r.parent_page_block_id,
          block_id: r.block_id,
          block_type: r.block_type,
          kind: r.kind,
          version: { major: r.major, minor: r.minor },
          placeholder_values: fromJson(r.placeholder_values),
          bindings: r.bindings === null ? null : fromJson(r.bindings),
          schema_snapshot: snapshots.get(r.snapshot_group)!,
          revision: assets.get(r.revision_id)!,
        })),
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
  };
}
