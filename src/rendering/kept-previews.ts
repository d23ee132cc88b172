import type { KeptDocuments, PageBlockInput } from '../modules/publishing/publishing.js';
import { StoredJson } from '../shared/stored-json.js';
import { CrossRequestCache } from '../shared/cross-request-cache.js';
import { isDeterministic } from './caches.js';

/** Eight documents at the page's HTML bound (2 Mi characters), or many more of the usual tens of kilobytes. */
export const PREVIEW_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * Preview documents as the bytes sent, by everything that decides them: each
 * instance's place, revision, values, stub data, type and fields, the
 * title and whether blocks are marked. A warm preview of a page of 2 Mi
 * characters was laid out, wrapped and encoded on the main thread at each
 * request (about 5 ms each): ten at once held `/health` 100 ms. Kept, a warm
 * preview is a key and a lookup. A revision never changes (its template, CSS
 * and JS are its id's), and no user is in the key: the same inputs make the
 * same document whoever asks, and whose page it is was checked before.
 * Bounded by bytes, keys included (two a character); a page whose template
 * uses a date filter may show the time, and is never kept.
 */
export class KeptPreviews implements KeptDocuments {
  readonly #kept: CrossRequestCache<string, Buffer>;
  hits = 0;

  constructor(
    /** Bytes. */
    readonly budget: number,
    /** Told of every preview looked up (metrics): kept or not. */
    private readonly onLookup?: (kept: boolean) => void,
  ) {
    this.#kept = new CrossRequestCache({ budget, weigh: (bytes, key) => bytes.length + 2 * key.length });
  }

  /** The key of this preview; none when one of its templates may show the time, or nothing is kept. */
  keyOf(blocks: PageBlockInput[], { title, marks }: { title: string; marks: boolean }): string | undefined {
    if (this.budget <= 0 || blocks.some((block) => !isDeterministic(block.template))) return undefined;
    // Each variable part with its length first, so that where one ends is never in doubt.
    const parts = [marks ? 'marked' : 'plain', `${title.length}:${title}`];
    for (const block of blocks) {
      const values = block.values instanceof StoredJson ? block.values.text : JSON.stringify(block.values);
      const rest = JSON.stringify([block.slots, block.blockType, block.richtextFields, block.markdownFields ?? null]);
      parts.push(`${block.id},${block.parentId},${block.revisionId},${values.length}:${values}${rest.length}:${rest}`);
    }
    return parts.join('\n');
  }

  get(key: string): Buffer | undefined {
    const bytes = this.#kept.get(key);
    if (bytes !== undefined) this.hits++;
    this.onLookup?.(bytes !== undefined);
    return bytes;
  }

  set(key: string, bytes: Buffer): void {
    this.#kept.set(key, bytes);
  }

  get stats() {
    return { entries: this.#kept.size, bytes: this.#kept.weight, hits: this.hits };
  }
}
