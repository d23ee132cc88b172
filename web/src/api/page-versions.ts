import type { Middleware } from 'openapi-fetch';

/**
 * No lost updates in the editor (issue 26): every write of a page carries
 * `If-Match` with the version the editor's view of the page is based on, so
 * that a change saved elsewhere meanwhile (another tab, another person, an
 * agent) is a 412 instead of being silently written over.
 *
 * It is done here, once, as the client's middleware, rather than by each call:
 * every page write the editor makes (values, blocks added, moved, removed,
 * replaced, upgraded, details, restore) goes through it, and a new one cannot
 * forget it. The editor says which version it shows (`advance`); each write's
 * answer moves it on (its ETag; a 2xx without one, such as a removed block's
 * 204, made exactly the next version, since it was written at the expected
 * one). A 412 is told to the editor (`onConflict`), which says so in words.
 */

/** A page write refused because the page is no longer at the version the editor had. */
export interface VersionConflict {
  pageId: number;
  /** The version the editor's view was based on. */
  expected: number;
  /** The page's version now. */
  current: number;
}

// The page writes that honour If-Match; reads, previews and publication are not among them.
const PAGE_WRITE =
  /^\/api\/pages\/\{(?:id|pageId)\}(?:\/blocks(?:\/\{pbId\}(?:\/(?:move|replace|upgrade))?|\/upgrade-all)?|\/versions\/\{number\}\/restore)?$/;
const WRITES = new Set(['PUT', 'POST', 'DELETE', 'PATCH']);

const versionOfETag = (etag: string | null): number | undefined => {
  const found = etag ? /^(?:W\/)?"(\d+)"$/.exec(etag.trim()) : null;
  return found ? Number(found[1]) : undefined;
};

export class PageWriteGuard {
  readonly #versions = new Map<number, number>();
  readonly #listeners = new Set<(conflict: VersionConflict) => void>();
  // The version each write in flight was sent with, by the client's request id.
  readonly #sent = new Map<string, { pageId: number; expected: number; dry: boolean; done: () => void }>();
  // The end of the last write of each page: the editor's own writes go one after the other, each expecting the
  // version the one before made (two at once would expect the same one, and the second be refused).
  readonly #last = new Map<number, Promise<void>>();

  /**
   * The editor shows version `version` of the page (or a later one is known):
   * writes expect the latest of the two. Versions only grow, so an older
   * answer arriving late never takes the guard back.
   */
  advance(pageId: number, version: number): void {
    const known = this.#versions.get(pageId);
    if (known === undefined || version > known) this.#versions.set(pageId, version);
  }

  /** The version the next write of the page will expect; undefined: none (no If-Match). */
  expected(pageId: number): number | undefined {
    return this.#versions.get(pageId);
  }

  /** The editor closed: writes of the page carry no condition any more. */
  forget(pageId: number): void {
    this.#versions.delete(pageId);
  }

  onConflict(listener: (conflict: VersionConflict) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  readonly middleware: Middleware = {
    onRequest: async ({ request, schemaPath, params, id }) => {
      const pageId = pageOf(request.method, schemaPath, params.path);
      if (pageId === undefined || !this.#versions.has(pageId) || request.headers.has('if-match')) return undefined;
      const before = this.#last.get(pageId);
      let done = () => {};
      const mine = new Promise<void>((resolve) => (done = resolve));
      const last = (before ?? Promise.resolve()).then(() => mine);
      this.#last.set(pageId, last);
      void last.then(() => this.#last.get(pageId) === last && this.#last.delete(pageId));
      await before;
      const expected = this.#versions.get(pageId);
      if (expected === undefined) {
        done();
        return undefined;
      }
      // A dry run writes nothing: it expects the version as the real call would, and moves nothing on.
      const dry = new URL(request.url, 'http://app.invalid').searchParams.has('dry_run');
      this.#sent.set(id, { pageId, expected, dry, done });
      request.headers.set('if-match', `W/"${expected}"`);
      return request;
    },
    onResponse: async ({ response, id }) => {
      const sent = this.#sent.get(id);
      if (!sent) return undefined;
      this.#sent.delete(id);
      try {
        await this.#settle(sent, response);
      } finally {
        sent.done();
      }
      return undefined;
    },
    onError: ({ id }) => {
      this.#sent.get(id)?.done();
      this.#sent.delete(id);
    },
  };

  async #settle(sent: { pageId: number; expected: number; dry: boolean }, response: Response): Promise<void> {
    if (response.ok) {
      if (!sent.dry) this.advance(sent.pageId, versionOfETag(response.headers.get('etag')) ?? sent.expected + 1);
      return;
    }
    if (response.status !== 412) return;
    const body = (await response
      .clone()
      .json()
      .catch(() => ({}))) as { error?: unknown; current_version?: unknown };
    if (body.error !== 'version_conflict' || typeof body.current_version !== 'number') return;
    const conflict = { pageId: sent.pageId, expected: sent.expected, current: body.current_version };
    for (const listener of this.#listeners) listener(conflict);
  }
}

function pageOf(method: string, schemaPath: string, path: Record<string, unknown> | undefined): number | undefined {
  if (!WRITES.has(method) || !PAGE_WRITE.test(schemaPath)) return undefined;
  const id = Number(path?.id ?? path?.pageId);
  return Number.isInteger(id) && id > 0 ? id : undefined;
}
