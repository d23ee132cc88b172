/**
 * Upgrade sets (issue 29, point 7): a block's upgrade plan applied to the
 * caller's pages at once, all or nothing, each page gaining one version; and
 * reverted, each page restored to its version before the set.
 */
import type { Version } from '../blocks/blocks.js';
import type { PageVersion } from './history.js';
import type { ProposedInstance } from './page-bounds.js';
import type { Author, NewInstance, PageFields } from './pages.js';

/** One page of a set as stored: where its versions stood. */
export interface UpgradeSetPage {
  page_id: number;
  /** The page's version just before the set, and the one the set made. */
  version_before: number;
  version_after: number;
  /** How many of its instances the set upgraded. */
  instances: number;
}

export interface UpgradeSetRecord {
  id: number;
  owner_id: number;
  block_id: number;
  to: Version;
  created_at: string;
  reverted_at: string | null;
  /** In the set's order (`pages[i]`). */
  pages: UpgradeSetPage[];
}

/** What one page of a set changes: each instance re-pinned, checked still on the revision the plan read. */
export interface PageUpgrade {
  pageId: number;
  changes: Array<{ pageBlockId: number; expectRevisionId: number; instance: NewInstance }>;
}

/** A page as an upgrade set checks it against its bounds before writing: its fields and its instances in order. */
export interface StandingPage {
  fields: Pick<PageFields, 'name' | 'slug' | 'meta_title' | 'meta_description' | 'meta_keywords' | 'meta_robots'>;
  /** Each with its revision's fields as its snapshot (one object a revision, shared). */
  instances: ProposedInstance[];
}

/** Port: upgrade sets, and the writes of their pages, each in one transaction. */
export interface UpgradeSetsRepository {
  /** The pages as they stand, by id (a page gone is absent): three reads for all of them. */
  standing(pageIds: number[]): Promise<Map<number, StandingPage>>;
  /**
   * Every page's re-pins and the set's record in one transaction, each page
   * under its lock (in page id order), one version each. An instance no longer
   * on the revision the plan read throws `conflict` at `pages[i]`, and nothing
   * is written.
   */
  apply(input: {
    ownerId: number;
    blockId: number;
    to: Version;
    pages: PageUpgrade[];
    now: string;
    by: Author;
  }): Promise<UpgradeSetRecord>;
  find(id: number): Promise<UpgradeSetRecord | undefined>;
  /** One owner's sets of a block, newest first, and how many there are. */
  list(
    ownerId: number,
    blockId: number,
    page: { limit: number; offset: number },
  ): Promise<{ sets: UpgradeSetRecord[]; total: number }>;
  /** Each page made equal to its version before the set (a new version each), and the set marked reverted, at once. */
  revert(input: { set: UpgradeSetRecord; versions: PageVersion[]; now: string; by: Author }): Promise<UpgradeSetRecord>;
}
