import { notFound, type ExpectedVersions } from '../../shared/errors.js';
import type { PageRequest } from '../../shared/pagination.js';
import type { StoredJson } from '../../shared/stored-json.js';
import type { FieldDefinition } from './schema/field-definitions.js';
import type { MigrationLink, MigrationStep } from './migrations/migration-steps.js';

export type BlockScope = 'global' | 'user';
export type BlockKind = 'content' | 'layout';
export type BlockType = 'schema' | 'markdown' | null;
export type VersionBump = 'major' | 'minor' | 'none';

export interface Version {
  major: number;
  minor: number;
}

export interface Revision {
  id: number;
  block_id: number;
  version: Version;
  template: string;
  css: string;
  js: string;
  /** Checked by validateSchemaContent before it was stored. */
  schema_content: FieldDefinition[];
  changelog: string | null;
  created_at: string;
}

export interface BlockRecord {
  id: number;
  owner_id: number;
  scope: BlockScope;
  kind: BlockKind;
  name: string;
  description: string;
  docs: string;
  block_type: BlockType;
  cover_key: string | null;
  is_deprecated: boolean;
  fork_count: number;
  forked_from_id: number | null;
  current_revision_id: number | null;
  /**
   * Counts the block's changes (fields, tags, a new revision, deprecation,
   * cover), from 1: the version its ETag names and `If-Match` is checked against.
   */
  edit_version: number;
  tags: number[];
  created_at: string;
  updated_at: string;
}

/** A block with what its output needs: the current revision and the viewer's favorite flag. */
export interface LoadedBlock extends BlockRecord {
  revision: Revision | null;
  is_favorite: boolean;
}

/**
 * What pinning an instance to a block's current revision needs, and no more
 * (page writes): no tags, favorites, template, CSS or JS.
 */
export interface PinnableBlock extends Pick<BlockRecord, 'id' | 'owner_id' | 'scope' | 'kind' | 'name' | 'block_type'> {
  revision: PinnedRevision | null;
}

export interface PinnedRevision extends Pick<Revision, 'id' | 'version'> {
  /** `schema_content` as stored: the instances' snapshot is copied from it, and it is parsed only if looked at. */
  schema: StoredJson<FieldDefinition[]>;
}

export interface NewRevision {
  version: Version;
  template: string;
  css: string;
  js: string;
  schema_content: FieldDefinition[];
  changelog: string | null;
  /** Data sources named by the revision's binding slots. */
  sources: string[];
  /** Value migrations from the revision before, checked against both revisions' fields (`checkMigrations`). */
  migrations?: MigrationStep[];
}

export interface BlockFields {
  name: string;
  description: string;
  docs: string;
  block_type: BlockType;
}

/** A block to write, with its first revision if it has content. */
export interface NewBlock {
  ownerId: number;
  scope: BlockScope;
  kind: BlockKind;
  fields: BlockFields;
  tags: number[];
  revision: NewRevision | null;
  /** A fork: the source's fork_count grows in the same transaction. */
  forkedFromId?: number;
  now: string;
}

export interface BlockListQuery extends PageRequest {
  viewerId: number;
  search?: string | undefined;
  tagIds?: number[] | undefined;
  kind?: BlockKind | undefined;
}

export interface Usage {
  id: number;
  page_id: number;
  page_name: string;
  version: Version;
  update_status: UpdateStatus;
}

/** A revision in the history: what changed and when, without its content. */
export interface RevisionSummary {
  id: number;
  version: Version;
  changelog: string | null;
  created_at: string;
}

export type UpdateStatus = 'up_to_date' | 'outdated_minor' | 'outdated_major';

/** Port: where blocks, their revisions, tags and favorites are kept. */
export interface BlocksRepository {
  /** `viewerId` decides `is_favorite`. */
  load(id: number, viewerId: number): Promise<LoadedBlock | undefined>;
  /** The blocks of these ids that exist, in no particular order: four queries, however many. */
  loadMany(ids: number[], viewerId: number): Promise<LoadedBlock[]>;
  /** The blocks of these (distinct) ids that exist, with their current revision: one query. */
  pinnable(ids: number[]): Promise<PinnableBlock[]>;
  list(query: BlockListQuery): Promise<{ rows: LoadedBlock[]; total: number }>;
  favorites(viewerId: number, page: PageRequest): Promise<{ rows: LoadedBlock[]; total: number }>;
  search(query: { terms: string[]; viewerId: number } & PageRequest): Promise<{ rows: LoadedBlock[]; total: number }>;
  /** The tag ids among these that do not exist. */
  missingTags(ids: number[]): Promise<number[]>;
  /** Block, first revision, tags and search entry, in one transaction. */
  create(input: NewBlock): Promise<number>;
  /**
   * Fields, tags, a new revision if any, and the search entry, in one
   * transaction, under the block's lock, one more edit version: `moved`, and
   * nothing written, when the block's current revision is no longer `basedOn`
   * (another update made one since the caller read it, and its version would
   * be taken twice); `{stale}` with the block's edit version when it is not one
   * of `expected` (checked under the same lock: of two writes expecting one
   * version, one goes through).
   */
  update(input: {
    id: number;
    basedOn: number | null;
    expected: ExpectedVersions;
    fields: BlockFields;
    tags: number[] | undefined;
    revision: NewRevision | null;
    /** Without a new revision: value fixes appended to the current one's migrations (`basedOn`). */
    fixes?: MigrationStep[];
    now: string;
  }): Promise<'done' | 'moved' | { stale: number }>;
  /**
   * Throws a `conflict` AppError when instances of the block stand on pages.
   * With `expected`, deletes only a block at one of those edit versions, in
   * the same statement: `{stale}` otherwise (undefined when it is gone).
   */
  delete(id: number, expected?: ExpectedVersions): Promise<{ stale: number } | undefined>;
  setFavorite(userId: number, blockId: number, on: boolean, now: string): Promise<void>;
  setDeprecated(id: number, isDeprecated: boolean, now: string): Promise<void>;
  setCover(id: number, key: string, now: string): Promise<void>;
  /** The block's revision at this version, if it has one. */
  revisionAt(blockId: number, version: Version): Promise<Revision | undefined>;
  /**
   * The chain of an instance on `after` to `upTo`: the block's revisions past
   * `after` up to `upTo` included, oldest first, each with its fields and the
   * migrations it carries from the one before.
   */
  chain(blockId: number, after: Version, upTo: Version): Promise<MigrationLink[]>;
  /** The block's revisions, newest first. */
  revisions(query: { blockId: number } & PageRequest): Promise<{ rows: RevisionSummary[]; total: number }>;
  usages(
    query: { blockId: number; userId: number; outdatedOnly: boolean } & PageRequest,
  ): Promise<{ rows: Usage[]; total: number; outdatedTotal: number }>;
}

/** Where the catalog of data sources is asked which source ids exist. */
export interface SourceCatalog {
  knownSourceIds(): Promise<Set<string>>;
  knownResultTypeIds(): Promise<Set<string>>;
  /** The `params_schema` of each existing source among `ids`. */
  paramsSchemas(ids: string[]): Promise<Map<string, Record<string, unknown>>>;
}

/** A block that does not exist (or went while a write referenced it). */
export const blockNotFound = (id: number) => notFound(`Block ${id} not found.`);

/** Where and why a template cannot be parsed (1-based line and column). */
export interface TemplateProblem {
  line: number;
  column: number;
  message: string;
}

/** Parses a template as the renderer would; undefined when it can be rendered. */
export interface TemplateChecker {
  check(template: string): Promise<TemplateProblem | undefined>;
}
