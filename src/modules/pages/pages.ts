import type { Actor, Via } from '../../shared/actor.js';
import {
  notFound,
  unprocessable,
  versionConflict,
  versionHolds,
  type ExpectedVersions,
  type FieldError,
} from '../../shared/errors.js';
import type { PageRequest } from '../../shared/pagination.js';
import type { BlockType, UpdateStatus, Version } from '../blocks/blocks.js';
import type { StoredJson } from '../../shared/stored-json.js';

export const META_FIELDS = ['meta_title', 'meta_description', 'meta_keywords', 'meta_robots'] as const;
export type MetaField = (typeof META_FIELDS)[number];

export interface PageFields {
  name: string;
  site_id: number | null;
  folder_id: number | null;
  slug: string | null;
  meta_title: string | null;
  meta_description: string | null;
  meta_keywords: string | null;
  meta_robots: string | null;
}

/** Every field of PageFields, in the order a diff names them. */
export const FIELD_NAMES = [
  'name',
  'site_id',
  'folder_id',
  'slug',
  'meta_title',
  'meta_description',
  'meta_keywords',
  'meta_robots',
] as const satisfies ReadonlyArray<keyof PageFields>;

/**
 * A page's fields as an update writes them: its site and folder only when the
 * request sets them. Written back unchanged, a site or folder deleted meanwhile
 * would refuse the write (its foreign key) for a field the client never sent;
 * left alone, the page keeps no site or folder, as after the delete.
 */
export type PageChange = Omit<PageFields, 'site_id' | 'folder_id'> & Partial<Pick<PageFields, 'site_id' | 'folder_id'>>;

/** A page's fields with nothing set but its name: where a new page starts. */
export const emptyPageFields = (name: string): PageFields => ({
  name,
  site_id: null,
  folder_id: null,
  slug: null,
  meta_title: null,
  meta_description: null,
  meta_keywords: null,
  meta_robots: null,
});

export interface Page extends PageFields {
  id: number;
  owner_id: number;
  kind: string;
  is_published: boolean;
  external_id: string | null;
  external_slug: string | null;
  published_at: string | null;
  publication_updated_at: string | null;
  /** The provider's message from the last failed publication; null after a success. */
  publication_error: string | null;
  publication_error_at: string | null;
  has_outdated_blocks: boolean;
  created_at: string;
  updated_at: string;
  /** The number of the page's latest version: every successful write makes the next one. */
  version: number;
}

/** Who makes a version: the user, and how they came (absent: no request, such as a script). */
export interface Author {
  userId: number;
  via?: Via;
}

/**
 * The page as read, when it is at one of the `expected` versions (or none was
 * given); else the 412. Said before anything in the body is looked at; the
 * write checks again under the page's lock.
 */
export function expectingVersion<T extends Pick<Page, 'id' | 'version'>>(page: T, expected: ExpectedVersions): T {
  if (!versionHolds(expected, page.version)) throw versionConflict(`Page ${page.id}`, page.version);
  return page;
}

export const authorOf = (actor: Actor): Author => ({ userId: actor.userId, ...(actor.via && { via: actor.via }) });

/** A folder a page cannot be in: not the actor's, not in the page's site, or gone. */
export const folderNotInSite = (folderId: number, siteId: number | null) =>
  unprocessable('The folder is not one of your folders in this site.', [
    { path: 'folder_id', message: `Folder ${folderId} is not in site ${siteId}.` },
  ]);

/**
 * A block an instance cannot be pinned to, because it does not exist or is
 * not the actor's to use (or went while the write referenced it). `at` is the
 * instance's place in the body (`blocks[2]`; '' for a body that is one instance).
 */
export const missingBlock = (at: string, blockId: number): FieldError => ({
  path: at ? `${at}.block_id` : 'block_id',
  message: `${at || 'block_id'}: block ${blockId} not found`,
  code: 'not_found',
  hint: 'find an available block with GET /blocks or GET /search/blocks',
});

/** The answer for instances whose blocks are missing: the first one's message, every one at its path. */
export const blocksNotFound = (missing: FieldError[]) => notFound(missing[0]!.message, missing);

/** The actor's page as read, or "not found": another user's page is invisible to this key. */
export function ownPage<T extends { owner_id: number }>(actor: Actor, id: number, page: T | undefined): T {
  if (!page || page.owner_id !== actor.userId) throw notFound(`Page ${id} not found.`);
  return page;
}

export interface PageBlock {
  id: number;
  page_id: number;
  block: { id: number; name: string; kind: 'content' | 'layout'; block_type: BlockType };
  revision_id: number;
  order_index: number;
  placeholder_values: Record<string, unknown>;
  bindings: Record<string, Binding> | null;
  parent_page_block_id: number | null;
  version: Version;
  /** The block's current version, to compare with the pin. */
  library_version: Version;
  update_status: UpdateStatus;
  /** The field definitions of the pinned revision, as stored (parsed only where they are looked at). */
  schema_snapshot: StoredJson<unknown[]>;
}

/** A page as its answers show it, with the owner it belongs to. */
export type PageHead = Pick<
  Page,
  | 'id'
  | 'owner_id'
  | 'name'
  | 'kind'
  | 'site_id'
  | 'folder_id'
  | 'slug'
  | 'meta_title'
  | 'meta_description'
  | 'meta_keywords'
  | 'meta_robots'
  | 'is_published'
  | 'has_outdated_blocks'
  | 'created_at'
  | 'updated_at'
  | 'version'
>;

/**
 * An instance as a page's answer shows it. Its values and bindings stay the
 * JSON text they are stored as, compact as JSON.stringify writes it: an answer
 * splices them in, unparsed (parsing and writing them again was a fifth of a read).
 */
export interface PageBlockView {
  id: number;
  block: { id: number; name: string; kind: 'content' | 'layout' };
  order_index: number;
  placeholder_values_json: string;
  bindings_json: string | null;
  parent_page_block_id: number | null;
  version: Version;
  update_status: UpdateStatus;
}

/** A write's answer: the page as the write left it, its instances built from what it wrote. */
export type WrittenPage = PageHead & { blocks: PageBlockView[] | null };

/**
 * A page as its answers show it: a write's, or a read's, whose instances come
 * as the answer's `blocks` array already written as JSON by the database.
 */
export type PageView = WrittenPage | (PageHead & { blocks: { json: string } });

export interface Binding {
  source: string;
  params?: Record<string, unknown>;
}

/** An instance to write, already validated and pinned. */
export interface NewInstance {
  block_id: number;
  revision_id: number;
  version: Version;
  /** The field definitions of the pinned revision (for the checks: never stored with the instance). */
  schema_snapshot: StoredJson<unknown[]>;
  placeholder_values: Record<string, unknown>;
  /**
   * The values' JSON as JSON.stringify writes it, made once by the builder:
   * stored, sent to the database and counted (the page's JSON bound) as it is,
   * never serialised again. Absent, the values are serialised where needed.
   */
  values_text?: string;
  /** The block's type as the write read it, when it did: what its HTML bound renders it as. */
  block_type?: BlockType;
  bindings: Record<string, Binding> | null;
  parent_page_block_id: number | null;
}

export interface PageListQuery extends PageRequest {
  ownerId: number;
  hasOutdated?: boolean;
  /** Only published pages whose current version is not the one the provider has. */
  hasUnpublishedChanges?: boolean;
  siteId?: number;
}

/** Port: where pages and their block instances are kept. Every method that writes several rows is one transaction. */
export interface PagesRepository {
  find(id: number): Promise<Page | undefined>;
  /** The page as its answers show it, its instances in order when asked for; both read from one state. */
  view(id: number, withBlocks: boolean): Promise<PageView | undefined>;
  list(query: PageListQuery): Promise<{ rows: Page[]; total: number }>;
  search(query: { ownerId: number; terms: string[] } & PageRequest): Promise<{ rows: Page[]; total: number }>;
  /**
   * Throws a `conflict` AppError at `slug` when the slug is taken in the site.
   * Answers the page as a read right after it would (its instances, their blocks
   * as the transaction saw them), built from what was written.
   */
  create(input: {
    ownerId: number;
    kind: string;
    fields: PageFields;
    instances: NewInstance[];
    now: string;
    by: Author;
  }): Promise<WrittenPage & { blocks: PageBlockView[] }>;
  /** `instances` given: the whole set is replaced. Throws the slug conflict. Answers the page as written. */
  update(input: {
    id: number;
    fields: PageChange;
    instances?: NewInstance[];
    now: string;
    by: Author;
    expected?: ExpectedVersions;
  }): Promise<WrittenPage>;
  /** With `expected`, deletes only a page at one of those versions (else the 412 `versionConflict`). */
  delete(id: number, expected?: ExpectedVersions): Promise<void>;
  blocks(pageId: number): Promise<PageBlock[]>;
  findBlock(pageId: number, pageBlockId: number): Promise<PageBlock | undefined>;
  /**
   * Inserts at a 0-based position of the page's order (undefined: its end, as the page stands
   * under its lock); answers the page as written, its instances included.
   */
  insertBlocks(input: {
    pageId: number;
    position?: number;
    instances: NewInstance[];
    now: string;
    by: Author;
    expected?: ExpectedVersions;
  }): Promise<WrittenPage>;
  /** `parentId`: null takes the instance out of its layout; undefined leaves its parent as it is. */
  moveBlock(input: {
    pageId: number;
    pageBlockId: number;
    position: number;
    parentId?: number | null;
    now: string;
    by: Author;
    expected?: ExpectedVersions;
  }): Promise<void>;
  deleteBlock(input: {
    pageId: number;
    pageBlockId: number;
    now: string;
    by: Author;
    expected?: ExpectedVersions;
  }): Promise<void>;
  updateBlock(input: {
    pageId: number;
    pageBlockId: number;
    values: Record<string, unknown>;
    bindings: Record<string, Binding> | null;
    now: string;
    by: Author;
    expected?: ExpectedVersions;
  }): Promise<void>;
  /** Re-pins instances, each with its new values, in one transaction. */
  repin(input: {
    pageId: number;
    changes: Array<{ pageBlockId: number; instance: NewInstance }>;
    now: string;
    by: Author;
  }): Promise<void>;
  /** A new instance in the old one's place (same position and parent), in one transaction; returns its id. */
  replaceBlock(input: {
    pageId: number;
    pageBlockId: number;
    instance: NewInstance;
    now: string;
    by: Author;
    expected?: ExpectedVersions;
  }): Promise<number>;
  /**
   * Runs `work` in one transaction holding the page's row lock, so upgrades of one page never interleave;
   * with `expected`, only while the page is at one of those versions (else the 412 `versionConflict`).
   */
  withPageLock<T>(pageId: number, work: (repo: PagesRepository) => Promise<T>, expected?: ExpectedVersions): Promise<T>;
}

/** Where the rules ask about page kinds and folders. */
export interface PageReferences {
  hasPageKind(kind: string): Promise<boolean>;
  pageKinds(): Promise<string[]>;
  folder(id: number): Promise<{ site_id: number; owner_id: number } | undefined>;
}
