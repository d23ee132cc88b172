import type { PageRequest } from '../../shared/pagination.js';

export interface Layout {
  id: number;
  name: string;
  scope: 'global' | 'user';
  site_id: number | null;
  tags: number[];
  template: string;
  css: string;
  js: string;
  fork_count: number;
  forked_from_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface OwnedLayout extends Layout {
  owner_id: number;
}

export interface LayoutFields {
  name: string;
  site_id: number | null;
  template: string;
  css: string;
  js: string;
}

/** Port: where layouts are kept. */
export interface LayoutsRepository {
  /** Global layouts and the viewer's own. */
  list(viewerId: number, page: PageRequest): Promise<{ rows: Layout[]; total: number }>;
  find(id: number): Promise<OwnedLayout | undefined>;
  missingTags(ids: number[]): Promise<number[]>;
  /** Layout and tags in one transaction; a fork also counts on its source. */
  create(input: {
    ownerId: number;
    scope: 'global' | 'user';
    fields: LayoutFields;
    tags: number[];
    forkedFromId?: number;
    now: string;
  }): Promise<number>;
  /** `site_id` only when the request sets it: a site deleted meanwhile leaves the layout without one. */
  update(input: {
    id: number;
    fields: Omit<LayoutFields, 'site_id'> & Partial<Pick<LayoutFields, 'site_id'>>;
    tags?: number[];
    now: string;
  }): Promise<void>;
  /** Throws a `conflict` AppError when a site uses the layout. */
  delete(id: number): Promise<void>;
}
