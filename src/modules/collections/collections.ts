import { notFound, unprocessable, type FieldError } from '../../shared/errors.js';
import type { PageRequest } from '../../shared/pagination.js';

export interface Collection {
  id: number;
  name: string;
  scope: 'global' | 'user';
  block_ids: number[];
  created_at: string;
}

export interface OwnedCollection extends Collection {
  owner_id: number;
}

/** What the collection rules need to know of a block. */
export interface BlockAccess {
  id: number;
  scope: 'global' | 'user';
  owner_id: number;
}

/** Port: where collections and their ordered blocks are kept. */
export interface CollectionsRepository {
  /** Global collections and the viewer's own. */
  list(viewerId: number, page: PageRequest): Promise<{ rows: Collection[]; total: number }>;
  find(id: number): Promise<OwnedCollection | undefined>;
  create(input: { ownerId: number; scope: 'global' | 'user'; name: string; now: string }): Promise<number>;
  blocksFor(ids: number[]): Promise<BlockAccess[]>;
  /**
   * Appends the blocks not already in the collection, in one transaction. `blockIds` as the
   * request sent them (duplicates too): a block or the collection gone meanwhile is refused as
   * the service refuses it, each block at its `block_ids[i]`.
   */
  append(id: number, blockIds: number[]): Promise<void>;
  /** Rewrites the positions, in one transaction. */
  reorder(id: number, blockIds: number[]): Promise<void>;
  delete(id: number): Promise<void>;
}

export const collectionNotFound = (id: number) => notFound(`Collection ${id} not found.`);

/** Why a block of `block_ids` cannot go in: each error at its `block_ids[i]`. */
export const blocksRefused = (errors: FieldError[]) =>
  unprocessable('Some blocks cannot go into this collection: see errors[].', errors);

export const unavailable = (blockId: number) => `Block ${blockId} is not available.`;
