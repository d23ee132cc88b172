/** How blocks' rows are read and turned into the module's records (lists, pins, search). */
import { sql, type Selectable } from 'kysely';
import type { BlockRecord, LoadedBlock, PinnableBlock, Revision } from '../../modules/blocks/blocks.js';
import type { Database } from '../dialects/dialect.js';
import type { BlockRevisionsTable, BlocksTable } from '../schema.js';
import { bool, fromJson } from './rows.js';

export type BlockRow = Selectable<BlocksTable>;

export const toRevision = (row: Selectable<BlockRevisionsTable>): Revision => ({
  id: row.id,
  block_id: row.block_id,
  version: { major: row.major, minor: row.minor },
  template: row.template,
  css: row.css,
  js: row.js,
  schema_content: fromJson<Revision['schema_content']>(row.schema_content),
  changelog: row.changelog,
  created_at: row.created_at,
});

export const BLOCK_COLUMNS = [
  'blocks.id',
  'blocks.owner_id',
  'blocks.scope',
  'blocks.kind',
  'blocks.name',
  'blocks.description',
  'blocks.docs',
  'blocks.block_type',
  'blocks.cover_key',
  'blocks.is_deprecated',
  'blocks.fork_count',
  'blocks.forked_from_id',
  'blocks.current_revision_id',
  'blocks.created_at',
  'blocks.updated_at',
] as const;

export type SearchRow = Omit<BlockRow, 'search_vector'> & {
  tag_ids: string | null;
  is_favorite: boolean | number;
  rev_id: number | null;
  rev_major: number;
  rev_minor: number;
  rev_template: string;
  rev_css: string;
  rev_js: string;
  rev_schema_content: string;
  rev_changelog: string | null;
  rev_created_at: string;
};

/** What a search reads of each block of its page: as `hydrate` gives it, in the same statement. */
export const searchColumns = (dialect: Database['dialect'], viewerId: number) => sql`${sql.join(
  BLOCK_COLUMNS.map((c) => sql.ref(c)),
)},
  ${dialect.search.tagIds} as tag_ids,
  exists (select 1 from favorites where favorites.user_id = ${viewerId} and favorites.block_id = blocks.id) as is_favorite,
  rev.id as rev_id, rev.major as rev_major, rev.minor as rev_minor, rev.template as rev_template, rev.css as rev_css,
  rev.js as rev_js, rev.schema_content as rev_schema_content, rev.changelog as rev_changelog,
  rev.created_at as rev_created_at`;

export const fromSearchRow = (row: SearchRow): LoadedBlock => ({
  ...toRecord(row, row.tag_ids === null ? [] : row.tag_ids.split(',').map(Number)),
  revision:
    row.rev_id === null
      ? null
      : toRevision({
          id: row.rev_id,
          block_id: row.id,
          major: row.rev_major,
          minor: row.rev_minor,
          template: row.rev_template,
          css: row.rev_css,
          js: row.rev_js,
          schema_content: row.rev_schema_content,
          changelog: row.rev_changelog,
          created_at: row.rev_created_at,
        }),
  is_favorite: bool(row.is_favorite),
});

export function toRecord(row: Omit<BlockRow, 'search_vector'>, tags: number[]): BlockRecord {
  return {
    id: row.id,
    owner_id: row.owner_id,
    scope: row.scope,
    kind: row.kind,
    name: row.name,
    description: row.description,
    docs: row.docs,
    block_type: row.block_type,
    cover_key: row.cover_key,
    is_deprecated: bool(row.is_deprecated),
    fork_count: row.fork_count,
    forked_from_id: row.forked_from_id,
    current_revision_id: row.current_revision_id,
    tags,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toPinnable(row: {
  id: number;
  owner_id: number;
  scope: PinnableBlock['scope'];
  kind: PinnableBlock['kind'];
  name: string;
  block_type: PinnableBlock['block_type'];
  revision_id: number | null;
  major: number | null;
  minor: number | null;
  schema_content: string | null;
}): PinnableBlock {
  const { revision_id, major, minor, schema_content, ...block } = row;
  if (revision_id === null) return { ...block, revision: null };
  const json = schema_content!;
  let fields: Revision['schema_content'] | undefined;
  return {
    ...block,
    revision: {
      id: revision_id,
      version: { major: major!, minor: minor! },
      schema_json: json,
      // Parsed only when asked for: a revision's compiled validator is usually kept already.
      get schema_content() {
        return (fields ??= fromJson<Revision['schema_content']>(json));
      },
    },
  };
}
