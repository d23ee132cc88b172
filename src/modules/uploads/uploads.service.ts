import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import { badGateway, fieldError, forbidden, notFound, tooLarge } from '../../shared/errors.js';
import type { BlocksRepository, LoadedBlock } from '../blocks/blocks.js';
import type { BlocksService } from '../blocks/blocks.service.js';
import type { SitesService } from '../sites/sites.service.js';
import { UploadsInFlight } from './in-flight.js';
import { storeImage, type ByteLimit } from './store-image.js';
import { isValidKey, StorageError, type Storage, type StorageStatus, type UploadsRepository } from './uploads.js';

export const COVER_MAX_BYTES = 5 * 1024 * 1024;
export const SITE_UPLOAD_MAX_BYTES = 100 * 1024 * 1024;

const MB = 1024 * 1024;
/** Megabytes as people read them: whole when large, one decimal when small. */
const mb = (bytes: number) => `${bytes >= 10 * MB ? Math.round(bytes / MB) : Math.round((bytes / MB) * 10) / 10} MB`;

/** One upload of a site, as its media library lists it. */
export interface SiteUpload {
  /** The file's name in the site's folder (the last part of its key). */
  name: string;
  url: string;
  bytes: number;
  created_at: string;
}

/** A file's bytes as they arrive (the multipart part's stream). */
export type UploadedFile = AsyncIterable<Buffer>;

/** Images behind the storage port: block covers and a site's own uploads. */
export class UploadsService {
  private readonly inFlight: UploadsInFlight;

  constructor(
    private readonly deps: {
      storage: Storage;
      uploads: UploadsRepository;
      blocks: BlocksService;
      blockRows: BlocksRepository;
      sites: SitesService;
      publicUrl: string;
      clock: Clock;
      /** Per user: the bytes of their stored uploads, and their uploads received at once. */
      limits: { quotaBytes: number; inFlight: number };
    },
  ) {
    this.inFlight = new UploadsInFlight(deps.limits.inFlight);
  }

  /** The owner replaces a block's cover; the old file goes once the new one is in place. */
  setCover(actor: Actor, blockId: number, file: UploadedFile): Promise<{ block: LoadedBlock; key: string }> {
    return this.inFlight.run(actor.userId, async () => {
      const block = await this.deps.blocks.get(actor, blockId);
      if (block.owner_id !== actor.userId)
        throw forbidden(`Block ${blockId} belongs to another user: only its owner sets its cover.`);
      const size: ByteLimit = {
        bytes: COVER_MAX_BYTES,
        refuse: () => fieldError('file', `The file is larger than ${mb(COVER_MAX_BYTES)}.`, { code: 'too_large' }),
      };
      // The cover it replaces is not counted against the new one: a user at their quota can still change a cover.
      const replaces = block.cover_key ?? undefined;
      const key = await this.storeCharged(actor.userId, file, 'covers', size, replaces);
      await this.deps.blockRows.setCover(blockId, key, this.deps.clock.now().toISOString());
      // A failed delete leaves an orphan file (no longer counted), never a broken cover.
      if (replaces) await this.deps.storage.delete(replaces).catch(() => undefined);
      return { block: await this.deps.blocks.get(actor, blockId), key };
    });
  }

  async siteStatus(actor: Actor, siteId: number): Promise<Omit<StorageStatus, 'driver'>> {
    await this.deps.sites.get(actor, siteId);
    const { driver: _driver, ...status } = this.deps.storage.status();
    return { ...status, public_url: status.public_url ?? `${this.deps.publicUrl}/uploads` };
  }

  /** An image for a site's pages; answers its absolute public URL. */
  siteUpload(actor: Actor, siteId: number, file: UploadedFile): Promise<{ url: string }> {
    return this.inFlight.run(actor.userId, async () => {
      await this.deps.sites.get(actor, siteId);
      const size: ByteLimit = {
        bytes: SITE_UPLOAD_MAX_BYTES,
        refuse: () => tooLarge('file', `The file is larger than ${mb(SITE_UPLOAD_MAX_BYTES)}.`),
      };
      const key = await this.storeCharged(actor.userId, file, `sites/${siteId}`, size);
      return { url: this.urlOf(key) };
    });
  }

  /** The site's uploads, newest first: what its pages can show (the media library). */
  async siteUploads(actor: Actor, siteId: number): Promise<SiteUpload[]> {
    await this.deps.sites.get(actor, siteId);
    const prefix = `sites/${siteId}/`;
    const rows = await this.deps.uploads.list(prefix);
    return rows.map((row) => ({
      name: row.key.slice(prefix.length),
      url: this.urlOf(row.key),
      bytes: row.bytes,
      created_at: row.created_at,
    }));
  }

  /**
   * Deletes one of the site's uploads: its file goes and it no longer counts
   * against the quota. A page that still shows it shows a missing image.
   */
  async removeSiteUpload(actor: Actor, siteId: number, name: string): Promise<void> {
    await this.deps.sites.get(actor, siteId);
    const key = `sites/${siteId}/${name}`;
    if (name.includes('/') || !isValidKey(key)) throw notFound(`No upload named “${name}” on this site.`);
    const known = (await this.deps.uploads.list(`sites/${siteId}/`)).some((row) => row.key === key);
    if (!known) throw notFound(`No upload named “${name}” on this site.`);
    await this.store(() => this.deps.storage.delete(key));
    await this.deps.uploads.forget(key);
  }

  private urlOf(key: string): string {
    return this.deps.storage.publicUrl(key) ?? `${this.deps.publicUrl}/uploads/${key}`;
  }

  /**
   * Streams the file to the storage within its size and the room left in the
   * user's quota, then records it against the quota. The room is read when
   * the upload starts and checked again, atomically, when it is recorded:
   * uploads running side by side (on any instance) cannot pass it together;
   * the one that would is deleted and refused.
   */
  private async storeCharged(
    userId: number,
    file: UploadedFile,
    prefix: string,
    size: ByteLimit,
    replaces?: string,
  ): Promise<string> {
    const quota = this.deps.limits.quotaBytes;
    const used = await this.deps.uploads.used(userId, replaces);
    const overQuota = (inUse: number) =>
      tooLarge(
        'file',
        `This file would take your uploads past your quota of ${mb(quota)}: ${mb(inUse)} in use, ${mb(Math.max(0, quota - inUse))} left.`,
        { expected: quota },
      );
    const room: ByteLimit = { bytes: Math.max(0, quota - used), refuse: () => overQuota(used) };
    const stored = await this.store(() =>
      storeImage({ storage: this.deps.storage, file, prefix, limits: [size, room] }),
    );
    const now = this.deps.clock.now().toISOString();
    const charged = await this.deps.uploads
      .record({ key: stored.key, userId, bytes: stored.bytes, quotaBytes: quota, now, ...(replaces && { replaces }) })
      .catch(async (error: unknown) => {
        await this.deps.storage.delete(stored.key).catch(() => undefined);
        throw error;
      });
    if (!charged.recorded) {
      await this.deps.storage.delete(stored.key).catch(() => undefined);
      throw overQuota(charged.used);
    }
    return stored.key;
  }

  /** Where local storage keeps the files, for the HTTP layer to stream them; undefined for a bucket. */
  directory(): string | undefined {
    return this.deps.storage.directory();
  }

  /** What `/uploads/<key>` answers: the bytes (local) or where the object lives (S3). */
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
