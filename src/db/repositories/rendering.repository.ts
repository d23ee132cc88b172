import { sql } from 'kysely';
import type {
  RenderableInstance,
  RenderablePage,
  RenderingRepository,
  RevisionAssets,
} from '../../modules/publishing/publishing.js';
import type { Database } from '../dialects/dialect.js';
import { prepared } from '../prepared.js';
import { bool, fromJson } from './rows.js';
import { readAll } from '../read-all.js';

const PAGE_COLUMNS = [
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
] as const;

type InstanceRow = Omit<
  RenderableInstance,
  'version' | 'placeholder_values' | 'bindings' | 'schema_snapshot' | 'revision'
> & { major: number; minor: number; placeholder_values: unknown; bindings: unknown; revision_id: number };
/** An instance's columns as PostgreSQL's read writes them, in this order. */
type InstanceColumns = [
  id: number,
  parent: number | null,
  blockId: number,
  blockType: RenderableInstance['block_type'],
  kind: RenderableInstance['kind'],
  major: number,
  minor: number,
  revisionId: number,
];
type RevisionRow = RevisionAssets & { schema_snapshot: unknown };

/**
 * The instances in page order, each revision once with its snapshot. `json`
 * reads a stored JSON value: text to parse (SQLite's rows), or a value the
 * server's JSON document already holds parsed (PostgreSQL's).
 */
function assemble(
  rows: InstanceRow[],
  revisions: RevisionRow[],
  json: (value: unknown) => unknown,
): RenderableInstance[] {
  const byId = new Map(
    revisions.map((r) => [
      r.id,
      {
        assets: { id: r.id, template: r.template, css: r.css, js: r.js },
        snapshot: (r.schema_snapshot === null ? [] : json(r.schema_snapshot)) as unknown[],
      },
    ]),
  );
  return rows.map((r) => {
    const revision = byId.get(r.revision_id)!;
    return {
      id: r.id,
      parent_page_block_id: r.parent_page_block_id,
      block_id: r.block_id,
      block_type: r.block_type,
      kind: r.kind,
      version: { major: r.major, minor: r.minor },
      placeholder_values: json(r.placeholder_values) as RenderableInstance['placeholder_values'],
      bindings: r.bindings === null ? null : (json(r.bindings) as RenderableInstance['bindings']),
      schema_snapshot: revision.snapshot,
      revision: revision.assets,
    };
  });
}

const parsed = (value: unknown) => value;
const parse = (value: unknown) => fromJson(value as string);

export function renderingRepository(database: Database): RenderingRepository {
  const { db, readNow } = database;
  const pageRow = prepared(
    db,
    1,
    (id: number) => db.selectFrom('pages').select(PAGE_COLUMNS).where('id', '=', id),
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
          'pb.revision_id',
        ])
        .where('pb.page_id', '=', pageId)
        .orderBy('pb.order_index')
        .orderBy('pb.id'),
    readNow,
  );
  // The page's revisions, each once with its assets and its field snapshot (the revision's
  // fields when pinned: the same on every instance pinning it), however many instances pin
  // it. 200 instances of ten revisions carried each text 200 times (bench B3), and grouping
  // them by window functions over the 5 KB snapshots cost more than the instances' own read.
  const revisionRows = prepared(
    db,
    1,
    (pageId: number) =>
      db
        .selectFrom('block_revisions as r')
        .select((eb) => [
          'r.id',
          'r.template',
          'r.css',
          'r.js',
          eb
            .selectFrom('page_blocks as s')
            .select('s.schema_snapshot')
            .where('s.page_id', '=', pageId)
            .whereRef('s.revision_id', '=', 'r.id')
            .orderBy('s.id')
            .limit(1)
            .as('schema_snapshot'),
        ])
        .where('r.id', 'in', (eb) =>
          eb.selectFrom('page_blocks as pb').select('pb.revision_id').where('pb.page_id', '=', pageId),
        ),
    readNow,
  );

  // PostgreSQL: the page, its instances and its revisions in one query: one round trip
  // and one snapshot (three queries on the pool ran on three connections). The server
  // writes the instances as three JSON documents in page order, each parsed once here,
  // rather than 200 rows of ten fields: their columns as arrays, then the stored values
  // and bindings spliced in as text (json_build_object over a jsonb value cost the
  // server twice the whole read).
  const pageDocument =
    database.dialect.name === 'postgres'
      ? prepared(
          db,
          1,
          (id: number) =>
            db
              .selectFrom('pages as p')
              .innerJoinLateral(
                (eb) =>
                  eb
                    .selectFrom('page_blocks as pb')
                    .innerJoin('blocks as b', 'b.id', 'pb.block_id')
                    .select([
                      sql<string>`coalesce(json_agg(json_build_array(pb.id, pb.parent_page_block_id, pb.block_id,
                        b.block_type, b.kind, pb.major, pb.minor, pb.revision_id) order by pb.order_index, pb.id), '[]')`.as(
                        'columns',
                      ),
                      sql<string>`coalesce('[' || string_agg(pb.placeholder_values::text, ','
                        order by pb.order_index, pb.id) || ']', '[]')`.as('values'),
                      sql<string>`coalesce('[' || string_agg(coalesce(pb.bindings::text, 'null'), ','
                        order by pb.order_index, pb.id) || ']', '[]')`.as('bindings'),
                    ])
                    .whereRef('pb.page_id', '=', 'p.id')
                    .as('i'),
                (join) => join.onTrue(),
              )
              .select(PAGE_COLUMNS.map((c) => `p.${c}` as const))
              .select(['i.columns', 'i.values', 'i.bindings'])
              .select(
                sql<string>`(select coalesce(json_agg(json_build_object(
                  'id', r.id, 'template', r.template, 'css', r.css, 'js', r.js,
                  'schema_snapshot', (select s.schema_snapshot from page_blocks s
                    where s.page_id = p.id and s.revision_id = r.id order by s.id limit 1))), '[]')
                  from block_revisions r
                  where r.id in (select pb.revision_id from page_blocks pb where pb.page_id = p.id))`.as('revisions'),
              )
              .where('p.id', '=', id),
          readNow,
        )
      : undefined;

  return {
    async page(pageId): Promise<RenderablePage | undefined> {
      if (pageDocument) {
        const [row] = await pageDocument(pageId);
        if (!row) return undefined;
        const { columns, values, bindings, revisions, ...page } = row;
        const valuesOf = fromJson<unknown[]>(values);
        const bindingsOf = fromJson<unknown[]>(bindings);
        const rows = fromJson<InstanceColumns[]>(columns).map(
          ([id, parent, blockId, blockType, kind, major, minor, revisionId], i): InstanceRow => ({
            id,
            parent_page_block_id: parent,
            block_id: blockId,
            block_type: blockType,
            kind,
            major,
            minor,
            placeholder_values: valuesOf[i],
            bindings: bindingsOf[i],
            revision_id: revisionId,
          }),
        );
        return {
          page: { ...page, is_published: bool(page.is_published) },
          instances: assemble(rows, fromJson(revisions), parsed),
        };
      }
      // With readNow (SQLite), the three run now, one after the other, on one state.
      const [[row], rows, revisions] = await readAll(
        db,
        () => pageRow(pageId),
        () => instanceRows(pageId),
        () => revisionRows(pageId),
      );
      if (!row) return undefined;
      return {
        page: { ...row, is_published: bool(row.is_published) },
        instances: assemble(rows, revisions, parse),
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
