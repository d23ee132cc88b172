import type { Kysely, RawBuilder } from 'kysely';

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
  /** Writes the block's entry; call it inside the transaction that changed the block. */
  index(db: Kysely<any>, blockId: number, doc: BlockSearchDocument): Promise<void>;
  /** A subquery of `(block_id, score)` for the terms (already split into words). */
  matches(terms: string[]): RawBuilder<{ block_id: number; score: number }>;
}

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
  matches(terms: string[]): RawBuilder<{ page_id: number; score: number }>;
}
