import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { ReadNow } from './read-now.js';

/** What is indexed for one block. Weights: name first, then tags and description, then docs. */
export interface BlockSearchDocument {
  name: string;
  description: string;
  docs: string;
  tags: string;
}

/**
 * Full-text search over blocks, the one feature whose SQL differs entirely
 * between the dialects. Matches come back as `(block_id, score)` rows where a
 * lower score is a better match on both, so callers order by score ascending.
 */
export interface BlockSearch {
  migrate(db: Kysely<unknown>): Promise<void>;
  /** Rebuilds the index in the current shape from the blocks (a migration, once). */
  rebuild(db: Kysely<any>): Promise<void>;
  /** Writes the block's entry; call it inside the transaction that changed the block. */
  index(db: Kysely<any>, blockId: number, doc: BlockSearchDocument): Promise<void>;
  /**
   * One page of the blocks that match every term (already split into words)
   * and that the viewer may see in lists, best match first (ties by id), each
   * read as `columns` (expressions over `blocks` and `rev`, its current
   * revision, left joined): each row the columns' values in their order. And
   * how many there are in all. The page's rows come with the ranking's own
   * statement where the database allows it.
   */
  search(
    db: Kysely<any>,
    query: BlockSearchQuery,
    columns: SearchColumns,
    readNow?: ReadNow,
  ): Promise<{ rows: unknown[][]; total: number }>;
  /** A block's tag ids in id order, comma-separated (null without tags): an expression over `blocks`. */
  readonly tagIds: RawBuilder<string | null>;
}

/**
 * Runs a search's select past Kysely's execution chain where `readNow` can
 * (see ReadNow: on PostgreSQL a named prepared statement, planned once per
 * connection instead of on every search), else through Kysely.
 */
export async function selectNow<R>(db: Kysely<any>, query: RawBuilder<R>, readNow: ReadNow | undefined): Promise<R[]> {
  const compiled = query.compile(db);
  const rows = db.isTransaction ? undefined : readNow?.(compiled.sql, compiled.parameters);
  if (rows) return (await rows) as R[];
  return (await db.executeQuery(compiled)).rows;
}

/** What a search reads of each block: expressions over `blocks` and `rev`; a row is their values, in order. */
export type SearchColumns = ReadonlyArray<RawBuilder<unknown>>;

/** What a search's page joins to each block: its current revision, if any. */
export const revisionJoin = sql`left join block_revisions rev on rev.id = blocks.current_revision_id`;

export interface BlockSearchQuery {
  terms: string[];
  viewerId: number;
  limit: number;
  offset: number;
}

/** Blocks shown in lists and search: the global ones not deprecated, and the viewer's own. */
export const visibleInLists = (viewerId: number) =>
  sql<boolean>`((blocks.scope = 'global' and blocks.is_deprecated = ${false}) or (blocks.scope = 'user' and blocks.owner_id = ${viewerId}))`;

/** What is indexed for one page: its name first, then slug and meta fields. */
export interface PageSearchDocument {
  name: string;
  slug: string;
  meta: string;
}

/** Full-text search over pages, the same contract as for blocks. */
export interface PageSearch {
  migrate(db: Kysely<unknown>): Promise<void>;
  index(db: Kysely<any>, pageId: number, doc: PageSearchDocument): Promise<void>;
  /**
   * A new page's entry: `columns` go into the page's own insert (PostgreSQL's
   * vector is a column of pages), then `add` writes what lives elsewhere
   * (SQLite's full-text row; a new page has no old one to remove).
   */
  created(doc: PageSearchDocument): {
    columns: Record<string, RawBuilder<unknown>>;
    add(db: Kysely<any>, pageId: number): Promise<void>;
  };
  matches(terms: string[]): RawBuilder<{ page_id: number; score: number }>;
}
