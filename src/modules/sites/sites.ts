import { notFound, unprocessable } from '../../shared/errors.js';
import type { PageRequest } from '../../shared/pagination.js';

export interface Site {
  id: number;
  name: string;
  domain: string | null;
  layout_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface SiteInput {
  name?: string;
  domain?: string | null;
  layout_id?: number | null;
}

export interface OwnedSite extends Site {
  user_id: number;
}

/** Port: where sites are kept. */
export interface SitesRepository {
  list(userId: number, page: PageRequest): Promise<{ rows: Site[]; total: number }>;
  find(id: number): Promise<OwnedSite | undefined>;
  create(input: { userId: number; name: string; domain: string | null; now: string }): Promise<Site>;
  update(id: number, patch: SiteInput & { updated_at: string }): Promise<Site>;
  delete(id: number): Promise<void>;
}

/** A site that does not exist (or went while a write referenced it), at `path` of the body when given. */
export function siteNotFound(id: number, path?: string) {
  const message = `Site ${id} not found.`;
  return notFound(message, path ? [{ path, message }] : undefined);
}

/** A layout a site cannot take: `why` says what the layout's own read answered. */
export const layoutUnavailable = (layoutId: number, why = `Layout ${layoutId} not found.`) =>
  unprocessable('The layout is not available.', [{ path: 'layout_id', message: why }]);
