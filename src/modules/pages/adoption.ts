/**
 * Adoption of a block (issue 29, point 8): how many of the caller's instances
 * stand on each revision, and on which pages. Counted in the database, one
 * row per revision and page: no values read, whatever the number of instances.
 */
import type { Version } from '../blocks/blocks.js';

/** The caller's instances of a block on one page at one revision. */
export interface AdoptionRow {
  version: Version;
  page_id: number;
  page_name: string;
  instances: number;
}

export interface Adoption {
  block_id: number;
  /** The block's current version; null for a block without a revision. */
  version: Version | null;
  instances: number;
  pages: number;
  /** Newest revision first; a page with instances on two revisions is under both. */
  revisions: Array<{
    version: Version;
    /** On the block's current version. */
    current: boolean;
    instances: number;
    pages: Array<{ id: number; name: string; instances: number }>;
  }>;
}

const newerFirst = (a: Version, b: Version) => b.major - a.major || b.minor - a.minor;

/** Rows grouped by revision, newest first, pages in name order. */
export function adoptionOf(blockId: number, version: Version | null, rows: AdoptionRow[]): Adoption {
  const byVersion = new Map<string, Adoption['revisions'][number]>();
  for (const row of rows) {
    const key = `${row.version.major}.${row.version.minor}`;
    const current = version !== null && version.major === row.version.major && version.minor === row.version.minor;
    const entry = byVersion.get(key) ?? { version: row.version, current, instances: 0, pages: [] };
    entry.instances += row.instances;
    entry.pages.push({ id: row.page_id, name: row.page_name, instances: row.instances });
    byVersion.set(key, entry);
  }
  const revisions = [...byVersion.values()].sort((a, b) => newerFirst(a.version, b.version));
  for (const r of revisions) r.pages.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
  return {
    block_id: blockId,
    version,
    instances: rows.reduce((n, r) => n + r.instances, 0),
    pages: new Set(rows.map((r) => r.page_id)).size,
    revisions,
  };
}
