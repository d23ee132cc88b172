import { CrossRequestCache } from '../shared/cross-request-cache.js';

interface KeptRead {
  version: string;
  ownerId: number;
  body: Buffer;
}

/**
 * Serialized answers of `GET /pages/{id}` (with and without blocks), kept with
 * the owner they belong to and the version of the database they were read at.
 * An entry is only served while that version still holds, so a kept answer is
 * never stale. The version is, where the database has one (SQLite), its write
 * generation: every write of this process (each statement that is not a
 * select, COMMIT and ROLLBACK included) and every commit of another process
 * moves it. Elsewhere (PostgreSQL, several instances) it is the page's
 * `content_version`, which triggers move in the transaction of every write
 * that changes the answer, read in the same query as the API key. Kept as
 * UTF-8 bytes: a kept answer is written to the socket as it is, where a string
 * would be measured and encoded again on every read. Bounded by bytes, least
 * recently used out.
 */
export class PageReadCache {
  readonly #entries: CrossRequestCache<string, KeptRead>;

  constructor(
    /** The database's write generation; undefined where pages carry their own version instead. */
    private readonly generation: (() => string) | undefined,
    budget = 8 * 1024 * 1024,
  ) {
    this.#entries = new CrossRequestCache({ budget, weigh: (entry) => entry.body.length });
  }

  /**
   * The version an answer read now is at: the write generation where there is
   * one, else the page's version read with the key (null when it was not
   * read, or there is no such page: nothing is served or kept then).
   */
  versionNow(pageVersion: string | null): string | null {
    return this.generation ? this.generation() : pageVersion;
  }

  /** The kept body, when it was read at `version` and the page is the user's. */
  get(pageId: number, withBlocks: boolean, userId: number, version: string | null): Buffer | undefined {
    if (version === null) return undefined;
    const key = `${pageId}:${withBlocks ? 1 : 0}`;
    const entry = this.#entries.get(key);
    if (!entry || entry.ownerId !== userId) return undefined;
    if (entry.version !== version) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.body;
  }

  /**
   * Keeps a body read after `version` was. Versions are never reused, so the
   * body is served only while nothing moved it since, when it is that
   * version's. With a write generation, a body read while it moved is not
   * kept at all: it may mix states, and would never be served. Answers the
   * body as bytes, to be sent as such.
   */
  set(pageId: number, withBlocks: boolean, ownerId: number, text: string, version: string | null): Buffer {
    const body = Buffer.from(text);
    if (version === null || (this.generation && version !== this.generation())) return body;
    this.#entries.set(`${pageId}:${withBlocks ? 1 : 0}`, { version, ownerId, body });
    return body;
  }
}
