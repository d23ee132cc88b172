import { CrossRequestCache } from '../shared/cross-request-cache.js';

interface KeptRead {
  version: string;
  ownerId: number;
  body: Buffer;
  /** The page's version number the body shows: its ETag, served with it. */
  etag: number;
}

/**
 * Serialized answers of `GET /pages/{id}` (with and without blocks), each kept
 * with the owner it belongs to and the version it was read at (PageReads says
 * which version that is, and when a body may be kept). Kept as UTF-8 bytes: a
 * kept answer is written to the socket as it is, where a string would be
 * measured and encoded again on every read. Bounded by bytes, least recently
 * used out.
 */
export class PageReadCache {
  readonly #entries: CrossRequestCache<string, KeptRead>;

  constructor(budget: number) {
    this.#entries = new CrossRequestCache({ budget, weigh: (entry) => entry.body.length });
  }

  /** The kept body and its ETag's version, when it was read at `version` and the page is the user's. */
  get(
    pageId: number,
    withBlocks: boolean,
    userId: number,
    version: string,
  ): { body: Buffer; etag: number } | undefined {
    const key = `${pageId}:${withBlocks ? 1 : 0}`;
    const entry = this.#entries.get(key);
    if (!entry || entry.ownerId !== userId) return undefined;
    if (entry.version !== version) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Bytes of the bodies kept. */
  get bytes(): number {
    return this.#entries.weight;
  }

  get entries(): number {
    return this.#entries.size;
  }

  /** Keeps a body read at `version`, with the page's version number it shows. */
  set(pageId: number, withBlocks: boolean, ownerId: number, body: Buffer, version: string, etag: number): void {
    this.#entries.set(`${pageId}:${withBlocks ? 1 : 0}`, { version, ownerId, body, etag });
  }
}
