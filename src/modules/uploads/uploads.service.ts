import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import { badGateway, forbidden } from '../../shared/errors.js';
import type { BlocksRepository, LoadedBlock } from '../blocks/blocks.js';
import type { BlocksService } from '../blocks/blocks.service.js';
import type { SitesService } from '../sites/sites.service.js';
import { storeImage } from './store-image.js';
import { isValidKey, StorageError, type Storage, type StorageStatus } from './uploads.js';

export const COVER_MAX_BYTES = 5 * 1024 * 1024;
export const SITE_UPLOAD_MAX_BYTES = 100 * 1024 * 1024;

/** Images behind the storage port: block covers and a site's own uploads. */
export class UploadsService {
  constructor(
    private readonly deps: {
      storage: Storage;
      blocks: BlocksService;
      blockRows: BlocksRepository;
      sites: SitesService;
      publicUrl: string;
      clock: Clock;
    },
  ) {}

  /** The owner replaces a block's cover; the old file goes once the new one is in place. */
  async setCover(actor: Actor, blockId: number, bytes: Buffer): Promise<{ block: LoadedBlock; key: string }> {
    const block = await this.deps.blocks.get(actor, blockId);
    if (block.owner_id !== actor.userId)
      throw forbidden(`Block ${blockId} belongs to another user: only its owner sets its cover.`);
    const { key } = await this.store(() =>
      storeImage({ storage: this.deps.storage, bytes, prefix: 'covers', maxBytes: COVER_MAX_BYTES }),
    );
    await this.deps.blockRows.setCover(blockId, key, this.deps.clock.now().toISOString());
    // A failed delete leaves an orphan file, never a broken cover.
    if (block.cover_key) await this.deps.storage.delete(block.cover_key).catch(() => undefined);
    return { block: await this.deps.blocks.get(actor, blockId), key };
  }

  async siteStatus(actor: Actor, siteId: number): Promise<Omit<StorageStatus, 'driver'>> {
    await this.deps.sites.get(actor, siteId);
    const { driver: _driver, ...status } = this.deps.storage.status();
    return { ...status, public_url: status.public_url ?? `${this.deps.publicUrl}/uploads` };
  }

  /** An image for a site's pages; answers its absolute public URL. */
  async siteUpload(actor: Actor, siteId: number, bytes: Buffer): Promise<{ url: string }> {
    await this.deps.sites.get(actor, siteId);
    const { key } = await this.store(() =>
      storeImage({ storage: this.deps.storage, bytes, prefix: `sites/${siteId}`, maxBytes: SITE_UPLOAD_MAX_BYTES }),
    );
    return { url: this.deps.storage.publicUrl(key) ?? `${this.deps.publicUrl}/uploads/${key}` };
  }

  /** What `/uploads/<key>` answers: the bytes (local) or where the object lives (S3). */
  /** Where local storage keeps the files, for the HTTP layer to stream them; undefined for a bucket. */
  directory(): string | undefined {
    return this.deps.storage.directory();
  }

  async open(key: string): Promise<{ redirect: string } | { body: Buffer; contentType: string } | undefined> {
    const url = this.deps.storage.publicUrl(key);
    if (url) return { redirect: url };
    if (!isValidKey(key)) return undefined;
    return this.store(() => this.deps.storage.get(key));
  }

  private async store<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof StorageError) throw badGateway(error.message, error.cause ?? error);
      throw error;
    }
  }
}
