import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import { fieldError, forbidden, type FieldError } from '../../shared/errors.js';
import { pageOf, type Page, type PageRequest } from '../../shared/pagination.js';
import {
  blocksRefused,
  collectionNotFound,
  unavailable,
  type Collection,
  type CollectionsRepository,
  type OwnedCollection,
} from './collections.js';

/**
 * Global collections hold global blocks and are changed by administrators;
 * personal ones hold their owner's blocks and global ones.
 */
export class CollectionsService {
  constructor(private readonly deps: { collections: CollectionsRepository; clock: Clock }) {}

  async list(actor: Actor, page: PageRequest): Promise<Page<Collection>> {
    const { rows, total } = await this.deps.collections.list(actor.userId, page);
    return pageOf(rows, total, page);
  }

  async get(actor: Actor, id: number): Promise<Collection> {
    return strip(await this.visible(actor, id));
  }

  async create(actor: Actor, name: string, scope: 'global' | 'user' = 'user'): Promise<Collection> {
    if (scope === 'global' && !actor.isAdmin) throw forbidden('Administrators only.');
    const id = await this.deps.collections.create({
      ownerId: actor.userId,
      scope,
      name,
      now: this.deps.clock.now().toISOString(),
    });
    return this.get(actor, id);
  }

  /** Duplicates (in the request or already there) are ignored; an unavailable block is a 422. */
  async addBlocks(actor: Actor, id: number, blockIds: number[]): Promise<Collection> {
    const collection = await this.writable(actor, id);
    const unique = [...new Set(blockIds)];
    const found = new Map((await this.deps.collections.blocksFor(unique)).map((b) => [b.id, b]));
    const errors: FieldError[] = [];
    blockIds.forEach((blockId, i) => {
      const block = found.get(blockId);
      const allowed =
        block &&
        (collection.scope === 'global'
          ? block.scope === 'global'
          : block.scope === 'global' || block.owner_id === actor.userId);
      if (!allowed) {
        const why =
          !block || (block.scope === 'user' && block.owner_id !== actor.userId)
            ? unavailable(blockId)
            : `Block ${blockId} is private: a global collection takes global blocks only.`;
        errors.push({ path: `block_ids[${i}]`, message: why });
      }
    });
    if (errors.length) throw blocksRefused(errors);
    await this.deps.collections.append(id, blockIds);
    return this.get(actor, id);
  }

  /** `blockIds` must be exactly the collection's blocks in a new order. */
  async reorder(actor: Actor, id: number, blockIds: number[]): Promise<Collection> {
    const collection = await this.writable(actor, id);
    const current = [...collection.block_ids].sort((a, b) => a - b);
    const wanted = [...blockIds].sort((a, b) => a - b);
    if (current.length !== wanted.length || current.some((v, i) => v !== wanted[i])) {
      throw fieldError(
        'block_ids',
        `block_ids must be a permutation of the collection's blocks: [${collection.block_ids.join(', ')}].`,
      );
    }
    await this.deps.collections.reorder(id, blockIds);
    return this.get(actor, id);
  }

  async delete(actor: Actor, id: number): Promise<void> {
    await this.writable(actor, id);
    await this.deps.collections.delete(id);
  }

  private async visible(actor: Actor, id: number): Promise<OwnedCollection> {
    const collection = await this.deps.collections.find(id);
    if (!collection) throw collectionNotFound(id);
    if (collection.scope === 'user' && collection.owner_id !== actor.userId)
      throw forbidden(`Collection ${id} belongs to another user.`);
    return collection;
  }

  private async writable(actor: Actor, id: number): Promise<OwnedCollection> {
    const collection = await this.visible(actor, id);
    if (collection.scope === 'global' && !actor.isAdmin)
      throw forbidden(`Collection ${id} is global: only administrators change it.`);
    return collection;
  }
}

const strip = ({ owner_id: _owner, ...collection }: OwnedCollection): Collection => collection;
