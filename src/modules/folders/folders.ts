import { notFound, unprocessable } from '../../shared/errors.js';
import type { PageRequest } from '../../shared/pagination.js';

export interface Folder {
  id: number;
  site_id: number;
  parent_id: number | null;
  name: string;
  created_at: string;
}

export interface OwnedFolder extends Folder {
  owner_id: number;
}

/** Port: the folder tree of each site. */
export interface FoldersRepository {
  list(query: { ownerId: number; siteId?: number } & PageRequest): Promise<{ rows: Folder[]; total: number }>;
  find(id: number): Promise<OwnedFolder | undefined>;
  /** The ids from `id` up to its root, `id` first. */
  ancestors(id: number): Promise<number[]>;
  create(input: {
    ownerId: number;
    siteId: number;
    parentId: number | null;
    name: string;
    now: string;
  }): Promise<Folder>;
  update(id: number, patch: { name?: string; parent_id?: number | null }): Promise<Folder>;
  delete(id: number): Promise<void>;
}

export const folderNotFound = (id: number) => notFound(`Folder ${id} not found.`);

/** A parent that is not one of the actor's folders in the site (or went while the write referenced it). */
export const parentNotInSite = (parentId: number, siteId: number) =>
  unprocessable('The parent folder is not one of your folders in this site.', [
    { path: 'parent_id', message: `Folder ${parentId} is not in site ${siteId}.` },
  ]);
