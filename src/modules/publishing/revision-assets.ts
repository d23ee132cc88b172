import { CrossRequestCache } from '../../shared/cross-request-cache.js';
import type { RevisionAssets } from './publishing.js';

/**
 * The template, CSS and JS of block revisions, kept across requests by
 * revision id (two bytes a character, keys aside). Nothing here can be stale:
 * a revision never changes them (a change of any of them makes a new revision,
 * under a new id; only its migration steps are ever appended), and a dry run's
 * ids are never handed out again. A block's type is not here: it can change
 * without a new revision, so it is read with the block.
 */
export class KeptRevisionAssets {
  readonly #kept: CrossRequestCache<number, RevisionAssets>;

  constructor(
    budgetBytes: number,
    /** The revisions of `ids` that exist, read from the database. */
    private readonly read: (ids: number[]) => Promise<Map<number, RevisionAssets>>,
  ) {
    this.#kept = new CrossRequestCache({
      budget: budgetBytes,
      weigh: (a) => 2 * (a.template.length + a.css.length + a.js.length),
    });
  }

  /** The revisions of `ids` that exist; only those not kept are read. */
  async of(ids: number[]): Promise<Map<number, RevisionAssets>> {
    const found = new Map<number, RevisionAssets>();
    const missing: number[] = [];
    for (const id of ids) {
      const kept = this.#kept.get(id);
      if (kept) found.set(id, kept);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    for (const [id, row] of await this.read(missing)) {
      const assets = { id: row.id, template: row.template, css: row.css, js: row.js };
      this.#kept.set(id, assets);
      found.set(id, assets);
    }
    return found;
  }

  /** Revisions kept (for tests). */
  get size(): number {
    return this.#kept.size;
  }
}
