/**
 * The model: what each user of one sequence owns, as plain data (cloned for
 * every ordering a parallel step is checked against). Users are indexes
 * 0..3; the last one is an administrator. Objects are keyed by their id.
 */
export const USERS = 4;
export const ADMIN_INDEX = USERS - 1;
/** An id no object ever has (ids are 32-bit, handed out from 1). */
export const NEVER = 2_147_483_000;

export type Provider = 'none' | 'ok' | 'bad-token';
export interface MSite {
  id: number;
  owner: number;
  provider: Provider;
}
export interface MFolder {
  id: number;
  owner: number;
  site: number;
  parent: number | null;
}
export interface MInstance {
  id: number;
  block: number;
  major: number;
  minor: number;
  /** The required field of the revision it is pinned to. */
  field: string;
}
export interface MPage {
  id: number;
  owner: number;
  site: number | null;
  folder: number | null;
  slug: string | null;
  instances: MInstance[];
  published: boolean;
  /** Its version (history's number, the ETag): 1 at creation, one more for every write that went through. */
  version: number;
}
export interface MBlock {
  id: number;
  owner: number;
  scope: 'user' | 'global';
  major: number;
  minor: number;
  /** The one required text field of its current revision. */
  field: string;
  /** Its edit version (ETag): one more for every change that went through. */
  edit: number;
  /**
   * Its current template, when it is not `templateOf(field, major, minor)`:
   * a fork starts at 1.0 with its source's current template.
   */
  template?: string;
}
export interface MCollection {
  id: number;
  owner: number;
  scope: 'user' | 'global';
  blocks: number[];
}

export interface World {
  /** Unique to the sequence: in every name, so that lists can be asked for this sequence's objects only. */
  token: string;
  /** Global collections of earlier sequences, listed before this sequence's. */
  collectionsBefore: number;
  sites: Record<number, MSite>;
  folders: Record<number, MFolder>;
  pages: Record<number, MPage>;
  blocks: Record<number, MBlock>;
  collections: Record<number, MCollection>;
  /** Ids that existed in this sequence and were deleted, by kind. */
  gone: Record<Kind, number[]>;
}

export type Kind = 'sites' | 'folders' | 'pages' | 'blocks' | 'collections' | 'instances';

export const emptyWorld = (token: string, collectionsBefore: number): World => ({
  token,
  collectionsBefore,
  sites: {},
  folders: {},
  pages: {},
  blocks: {},
  collections: {},
  gone: { sites: [], folders: [], pages: [], blocks: [], collections: [], instances: [] },
});

export const cloneWorld = (w: World): World => structuredClone(w);

export const isAdmin = (who: number) => who === ADMIN_INDEX;

/**
 * Each block has one required text field; a major step renames it (a removed
 * field is what makes a step major), a minor one changes the template only.
 */
export const otherField = (field: string) => (field === 'title' ? 'heading' : 'title');
export const schemaOf = (field: string) => [{ name: field, type: 'string', required: true, max_length: 80 }];
export const templateOf = (field: string, major: number, minor: number) =>
  `<p>{{ ${field} }}</p><!-- ${major}.${minor} -->`;

/** Values that fit (or, `valid` false, break) a schema whose field is `field`. */
export const valuesFor = (field: string, valid = true) => ({ [field]: valid ? 'text' : 42 });

/** The objects of kind `kind` in the world, as a list. */
export const all = <T>(record: Record<number, T>): T[] => Object.values(record);

/** Every instance of every page, with its page. */
export const instancesOf = (w: World) =>
  all(w.pages).flatMap((page) => page.instances.map((instance, index) => ({ page, instance, index })));

export const blockInUse = (w: World, blockId: number) =>
  instancesOf(w).some(({ instance }) => instance.block === blockId);

/** A block `who` may put on a page or in a personal collection: own, or global. */
export const usableBlock = (w: World, who: number, blockId: number) => {
  const block = w.blocks[blockId];
  return block !== undefined && (block.scope === 'global' || block.owner === who);
};

/** A folder and everything under it. */
export function subtree(w: World, folderId: number): number[] {
  const out = [folderId];
  for (let i = 0; i < out.length; i++) {
    for (const f of all(w.folders)) if (f.parent === out[i]) out.push(f.id);
  }
  return out;
}

export function removeFolders(w: World, ids: number[]) {
  for (const id of ids) {
    delete w.folders[id];
    w.gone.folders.push(id);
  }
  for (const page of all(w.pages)) if (page.folder !== null && ids.includes(page.folder)) page.folder = null;
}

/** A site goes with its folders (and their pages' places in them) and its provider; its pages stay, without a site. */
export function removeSite(w: World, id: number) {
  removeFolders(
    w,
    all(w.folders)
      .filter((f) => f.site === id)
      .map((f) => f.id),
  );
  for (const page of all(w.pages)) if (page.site === id) page.site = null;
  delete w.sites[id];
  w.gone.sites.push(id);
}

export function removePage(w: World, id: number) {
  const page = w.pages[id]!;
  w.gone.instances.push(...page.instances.map((i) => i.id));
  delete w.pages[id];
  w.gone.pages.push(id);
}

export function removeBlock(w: World, id: number) {
  delete w.blocks[id];
  w.gone.blocks.push(id);
  for (const c of all(w.collections)) c.blocks = c.blocks.filter((b) => b !== id);
}

/** Another page of the same site with this slug: the write is a 409 at `slug`. */
export const slugTaken = (w: World, site: number | null, slug: string | null, except?: number) =>
  site !== null && slug !== null && all(w.pages).some((p) => p.id !== except && p.site === site && p.slug === slug);
