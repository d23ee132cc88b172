import type { FastifyReply, FastifyRequest } from 'fastify';
import { isObject } from '../shared/is-object.js';
import { PageReadCache } from './page-read-cache.js';
import { sendSerialized } from './serialized.js';
import { withETag } from './if-match.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The version of the page read with the API key (`PageReads.readWithKey`); PageReads' own. */
    pageVersion: string | null;
  }
  interface FastifyContextConfig {
    /** The route answers the page `params.id` through `PageReads.send`: its version may be read with the key. */
    readsPage?: boolean;
  }
}

export interface PageReadsOptions {
  /** Bytes of kept answers (config `pageCacheBytes`). */
  budget: number;
  /** Told of every read that could be served kept: served (true) or read afresh (false). */
  onRead?: ((hit: boolean) => void) | undefined;
}

/**
 * The page-read cache behind one seam: `GET /pages/{id}` answers through
 * `send`, and nothing else knows how a kept answer is checked. It is checked
 * against the page's own version (`Dialect.pageVersions`, moved by triggers in
 * the transaction of every write that changes the answer), read in the API
 * key's lookup, so that a kept answer costs one statement, the key's, and a
 * write to one page leaves every other page's answer kept. The key hook asks
 * `pageToRead` which page that is and hands the version back on the request.
 */
export class PageReads {
  readonly #kept: PageReadCache;
  readonly #onRead: ((hit: boolean) => void) | undefined;
  readonly #budget: number;
  #hits = 0;
  #misses = 0;

  constructor(options: PageReadsOptions) {
    this.#kept = new PageReadCache(options.budget);
    this.#onRead = options.onRead;
    this.#budget = options.budget;
  }

  /** Reads served kept and read afresh since the start, and the bytes kept now (for `/metrics`). */
  get stats(): { hits: number; misses: number; bytes: number; entries: number; budget: number } {
    const { bytes, entries } = this.#kept;
    return { hits: this.#hits, misses: this.#misses, bytes, entries, budget: this.#budget };
  }

  /**
   * For the API-key hook: the page whose version its lookup reads beside the
   * key, or undefined. The parameters are not validated yet: anything but an
   * id the column can hold is left to the route's own validation.
   */
  pageToRead(request: FastifyRequest): number | undefined {
    if (!request.routeOptions.config.readsPage) return undefined;
    const id = isObject(request.params) ? request.params.id : undefined;
    if (typeof id !== 'string' || !/^[1-9][0-9]{0,9}$/.test(id)) return undefined;
    const n = Number(id);
    return n <= 2_147_483_647 ? n : undefined;
  }

  /** For the API-key hook: the version its lookup read (`pageToRead`), null without such a page. */
  readWithKey(request: FastifyRequest, version: string | null | undefined): void {
    request.pageVersion = version ?? null;
  }

  /**
   * Answers the page: the kept body when it was read at the version that holds
   * now and belongs to `ownerId`, else `read()`'s body, kept with the version
   * read before it. Committed versions of a page only grow, so a body read
   * after a later write committed (its state is that write's or newer) is kept
   * under a version that no read meets again: a body is served only while
   * nothing moved its page's version since it was read. Either way the
   * answer's ETag is the page's version number the body shows, kept with it.
   */
  async send(
    request: FastifyRequest,
    reply: FastifyReply,
    page: { id: number; withBlocks: boolean; ownerId: number },
    read: () => Promise<{ body: string; version: number }>,
  ): Promise<FastifyReply> {
    const version = request.pageVersion;
    // null: the version was not read (no such page when it was, or no key): nothing is served or kept.
    if (version === null) {
      const fresh = await read();
      return sendSerialized(withETag(reply, fresh.version), fresh.body);
    }
    const kept = this.#kept.get(page.id, page.withBlocks, page.ownerId, version);
    this.#count(kept !== undefined);
    if (kept !== undefined) return sendSerialized(withETag(reply, kept.etag), kept.body);
    const fresh = await read();
    const body = Buffer.from(fresh.body);
    this.#kept.set(page.id, page.withBlocks, page.ownerId, body, version, fresh.version);
    return sendSerialized(withETag(reply, fresh.version), body);
  }

  #count(hit: boolean): void {
    if (hit) this.#hits++;
    else this.#misses++;
    this.#onRead?.(hit);
  }
}
