import type { ExpectedVersions } from '../../shared/errors.js';
import type { PageRequest } from '../../shared/pagination.js';
import type { BlockType, UpdateStatus, Version } from '../blocks/blocks.js';
import type { Author, PageFields, WrittenPage } from './pages.js';

/** How a version's author came: an API key, a session of the web app, MCP, or none (made by a migration). */
export type ActorVia = 'key' | 'session' | 'mcp' | 'system';

/** One version in a page's history, as the list shows it. */
export interface VersionEntry {
  number: number;
  created_at: string;
  actor: { user_id: number | null; email: string | null; via: ActorVia; key_prefix: string | null };
  summary: string;
  /** This version went to the provider. */
  published: boolean;
}

/** An instance as a version holds it, with its block as the library has it now (null: deleted since). */
export interface VersionInstance {
  id: number;
  /** Where the version keeps it (page_block_states): how a restore finds it again. */
  state_id: number;
  parent_page_block_id: number | null;
  block_id: number;
  revision_id: number;
  version: Version;
  /** As stored: the answer splices the text in. */
  placeholder_values_json: string;
  bindings_json: string | null;
  block: { name: string; kind: 'content' | 'layout'; block_type: BlockType } | null;
  /** The pin against the block's current revision now (what a restore would bring back); deleted: the block is gone. */
  update_status: UpdateStatus | 'block_deleted';
  /** False when the pinned revision is gone (its block was deleted). */
  revision_exists: boolean;
}

/** A version whole: its entry, the page's metadata as it was, and its instances in order. */
export interface PageVersion extends VersionEntry {
  page_id: number;
  fields: PageFields;
  instances: VersionInstance[];
}

/** What rendering a version needs of each pinned revision. */
export interface VersionRevision {
  id: number;
  template: string;
  css: string;
  js: string;
  /** As stored. */
  schema_content: string;
}

/** Port: a page's history, kept beside the page (see src/db/repositories/pages/README.md). */
export interface PageHistoryRepository {
  list(pageId: number, page: PageRequest): Promise<{ rows: VersionEntry[]; total: number }>;
  /**
   * `library: false`: the version alone, for comparing two (no block read, and
   * values as the database writes them: equal texts are equal values).
   */
  find(pageId: number, number: number, options?: { library: boolean }): Promise<PageVersion | undefined>;
  revisions(ids: number[]): Promise<Map<number, VersionRevision>>;
  /**
   * Makes the page's next version equal to `version` under the page's lock:
   * instances still on the page are rewritten in place (same id), those gone
   * come back as new instances, the others leave; pins as they were. The page
   * keeps its site and folder. Throws `conflict` at `blocks[i]` when a pinned
   * revision is gone (its block deleted), and the slug conflict. Answers the
   * page as written. With `expected`, only while the page is at one of those
   * versions (checked under the lock: 412 `version_conflict`).
   */
  restore(input: { version: PageVersion; by: Author; now: string; expected?: ExpectedVersions }): Promise<WrittenPage>;
}

/** A change of values or bindings: the path in the newer version, and each side (absent: not there). */
export interface ValueChange {
  path: string;
  old?: unknown;
  new?: unknown;
}

export interface VersionDiff {
  from: number;
  to: number;
  blocks: {
    added: Array<{ id: number; index: number; block_id: number }>;
    removed: Array<{ id: number; index: number; block_id: number }>;
    moved: Array<{
      id: number;
      from_index: number;
      to_index: number;
      from_parent: number | null;
      to_parent: number | null;
    }>;
    pins: Array<{ id: number; index: number; block_id: number; from: Version; to: Version }>;
  };
  values: ValueChange[];
  metadata: Array<{ field: keyof PageFields; old: unknown; new: unknown }>;
}
