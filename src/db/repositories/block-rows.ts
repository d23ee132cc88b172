/** How blocks' rows are read and turned into the module's records (lists, pins, search). */
import { sql, type Selectable } from 'kysely';
import type { BlockRecord, LoadedBlock, PinnableBlock, Revision } from '../../modules/blocks/blocks.js';
import type { Database } from '../dialects/dialect.js';
import type { SearchColumns } from '../dialects/search.js';
import type { BlockRevisionsTable, BlocksTable } from '../schema.js';
import { StoredJson } from '../../shared/stored-json.js';
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
  'blocks.edit_version',
  'blocks.created_at',
  'blocks.updated_at',
] as const;

const REVISION_COLUMNS = ['id', 'major', 'minor', 'template', 'css', 'js', 'schema_content', 'changelog', 'created_at'];

/**
 * What a search reads of each block of its page, as `hydrate` gives it, in the same
 * statement: the block's columns, its tag ids in id order (comma-separated), the
 * viewer's favorite and the current revision's columns. Rows come back as arrays of
 * these values, in this order (see `fromSearchValues`).
 */
export const searchColumns = (dialect: Database['dialect'], viewerId: number): SearchColumns => [
  ...BLOCK_COLUMNS.map((c) => sql.ref(c)),
  dialect.search.tagIds,
  sql`exists (select 1 from favorites where favorites.user_id = ${viewerId} and favorites.block_id = blocks.id)`,
  ...REVISION_COLUMNS.map((c) => sql.ref(`rev.${c}`)),
];

// Where each value sits in a search's row (`searchColumns`' order).
const AT = Object.fromEntries(
  [...BLOCK_COLUMNS.map((c) => c.slice('blocks.'.length)), 'tag_ids', 'is_favorite']
    .concat(REVISION_COLUMNS.map((c) => `rev_${c}`))
    .map((name, i) => [name, i]),
) as Record<string, number>;

/**
 * A search's row as the module's block. Built in one object literal: spreading
 * `toRecord`'s sixteen fields into a literal with two more took V8's slow path,
 * about 5 µs a block, a quarter of a millisecond for a page of fifty.
 */
export function fromSearchValues(v: unknown[]): LoadedBlock {
  const tagIds = v[AT.tag_ids!] as string | null;
  const revisionId = v[AT.rev_id!] as number | null;
  return {
    id: v[AT.id!] as number,
    owner_id: v[AT.owner_id!] as number,
    scope: v[AT.scope!] as BlockRecord['scope'],
    kind: v[AT.kind!] as BlockRecord['kind'],
    name: v[AT.name!] as string,
    description: v[AT.description!] as string,
    docs: v[AT.docs!] as string,
    block_type: v[AT.block_type!] as BlockRecord['block_type'],
    cover_key: v[AT.cover_key!] as string | null,
    is_deprecated: bool(v[AT.is_deprecated!] as number | boolean),
    fork_count: v[AT.fork_count!] as number,
    forked_from_id: v[AT.forked_from_id!] as number | null,
    current_revision_id: v[AT.current_revision_id!] as number | null,
    edit_version: Number(v[AT.edit_version!]),
    tags: tagIds === null ? [] : tagIds.split(',').map(Number),
    created_at: v[AT.created_at!] as string,
    updated_at: v[AT.updated_at!] as string,
    revision:
      revisionId === null
        ? null
        : {
            id: revisionId,
            block_id: v[AT.id!] as number,
            version: { major: v[AT.rev_major!] as number, minor: v[AT.rev_minor!] as number },
            template: v[AT.rev_template!] as string,
            css: v[AT.rev_css!] as string,
            js: v[AT.rev_js!] as string,
            schema_content: fromJson<Revision['schema_content']>(v[AT.rev_schema_content!] as string),
            changelog: v[AT.rev_changelog!] as string | null,
            created_at: v[AT.rev_created_at!] as string,
          },
    is_favorite: bool(v[AT.is_favorite!] as number | boolean),
  };
}

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
    edit_version: row.edit_version,
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
  return {
    ...block,
    revision: {
      id: revision_id,
      version: { major: major!, minor: minor! },
      // Parsed only when looked at: a revision's compiled validator is usually kept already.
      schema: StoredJson.fromText<Revision['schema_content']>(schema_content!),
    },
  };
}
