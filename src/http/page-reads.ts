import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PageVersionKind } from '../modules/pages/pages.js';
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

/**
 * The page-read cache behind one seam: `GET /pages/{id}` answers through
 * `send`, and nothing else knows how a kept answer is checked. The version it
 * is checked against is one kind per database (PageVersionKind):
 * - `database` (SQLite): the write generation, read here at each request;
 * - `page` (PostgreSQL): the page's version, read in the API key's lookup, so
 *   that a kept answer costs one round trip, the key's. The key hook asks
 *   `pageToRead` which page that is and hands the version back on the request.
 */
export class PageReads {
  readonly #kept: PageReadCache;

  constructor(
    private readonly version: PageVersionKind,
    budget?: number,
  ) {
    this.#kept = new PageReadCache(budget);
  }

  /**
   * For the API-key hook: the page whose version its lookup reads beside the key
   * (PostgreSQL), or undefined. The parameters are not validated yet: anything
   * but an id the column can hold is left to the route's own validation.
   */
  pageToRead(request: FastifyRequest): number | undefined {
    if (this.version.kind !== 'page' || !request.routeOptions.config.readsPage) return undefined;
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
   * taken before the read. Versions are never reused, so a body is served only
   * while nothing moved its version since it was read. A body read while the
   * write generation moved is not kept: it may mix states. Either way the
   * answer's ETag is the page's version number the body shows, kept with it.
   */
  async send(
    request: FastifyRequest,
    reply: FastifyReply,
    page: { id: number; withBlocks: boolean; ownerId: number },
    read: () => Promise<{ body: string; version: number }>,
  ): Promise<FastifyReply> {
    const version = this.version.kind === 'database' ? this.version.now() : request.pageVersion;
    // null: the version was not read (no such page when it was): nothing is served or kept.
    if (version === null) {
      const fresh = await read();
      return sendSerialized(withETag(reply, fresh.version), fresh.body);
    }
    const kept = this.#kept.get(page.id, page.withBlocks, page.ownerId, version);
    if (kept !== undefined) return sendSerialized(withETag(reply, kept.etag), kept.body);
    const fresh = await read();
    const body = Buffer.from(fresh.body);
    if (this.version.kind === 'page' || version === this.version.now())
      this.#kept.set(page.id, page.withBlocks, page.ownerId, body, version, fresh.version);
    return sendSerialized(withETag(reply, fresh.version), body);
  }
}
