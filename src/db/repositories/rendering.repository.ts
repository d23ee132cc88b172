import type { RenderingRepository } from '../../modules/publishing/publishing.js';
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
        'pb.schema_snapshot',
        'r.id as revision_id',
        'r.template',
        'r.css',
        'r.js',
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
          schema_snapshot: fromJson(r.schema_snapshot),
          revision: { id: r.revision_id, template: r.template, css: r.css, js: r.js },
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
