import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import { forbidden } from '../../shared/errors.js';
import type { Storage } from '../../storage/storage.js';
import { storeImage } from '../../storage/uploads.js';
import type { BlocksRepository, LoadedBlock } from './blocks.js';
import type { BlocksService } from './blocks.service.js';

export const COVER_MAX_BYTES = 5 * 1024 * 1024;

/** A block's cover image: its type decided by its bytes, stored behind the storage port. */
export class BlockCoversService {
  constructor(private readonly deps: { blocks: BlocksService; repository: BlocksRepository; storage: Storage; clock: Clock }) {}

  async setCover(actor: Actor, id: number, bytes: Buffer): Promise<{ block: LoadedBlock; key: string }> {
    const block = await this.deps.blocks.get(actor, id);
    if (block.owner_id !== actor.userId) throw forbidden(`Block ${id} belongs to another user: only its owner sets its cover.`);
    const { key } = await storeImage({ storage: this.deps.storage, bytes, prefix: 'covers', maxBytes: COVER_MAX_BYTES });
    await this.deps.repository.setCover(id, key, this.deps.clock.now().toISOString());
    // The old file goes only once the new one is in place; a failure here leaves an orphan, never a broken cover.
    if (block.cover_key) await this.deps.storage.delete(block.cover_key).catch(() => undefined);
    return { block: await this.deps.blocks.get(actor, id), key };
  }
}
