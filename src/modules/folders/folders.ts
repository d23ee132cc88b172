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
