import type { Actor } from '../../shared/actor.js';
import { conflict, fieldError, forbidden, notFound } from '../../shared/errors.js';
import { pageOf, type Page, type PageRequest } from '../../shared/pagination.js';
import { BUILT_IN_PAGE_KINDS, PAGE_KIND_PATTERN, type PageType, type PageTypesRepository } from './catalog.js';

/** The allowed values of a page's `kind`. Everyone reads them; administrators change them. */
export class PageTypesService {
  constructor(private readonly deps: { pageTypes: PageTypesRepository }) {}

  async list(page: PageRequest): Promise<Page<PageType>> {
    const { rows, total } = await this.deps.pageTypes.list(page);
    return pageOf(rows, total, page);
  }

  async get(kind: string): Promise<PageType> {
    const found = await this.deps.pageTypes.find(kind);
    if (!found) throw notFound(`Page type ${kind} not found.`);
    return found;
  }

  /** A taken kind is a 409 at `kind` (the primary key decides). */
  async create(actor: Actor, input: PageType): Promise<PageType> {
    adminOnly(actor);
    if (!PAGE_KIND_PATTERN.test(input.kind)) throw fieldError('kind', `A kind matches ${PAGE_KIND_PATTERN.source}.`);
    return this.deps.pageTypes.create({ kind: input.kind, title: input.title.trim() });
  }

  /** Only the title changes: pages hold the kind. */
  async update(actor: Actor, kind: string, patch: { title?: string }): Promise<PageType> {
    adminOnly(actor);
    const updated =
      patch.title === undefined
        ? await this.deps.pageTypes.find(kind)
        : await this.deps.pageTypes.update(kind, patch.title.trim());
    if (!updated) throw notFound(`Page type ${kind} not found.`);
    return updated;
  }

  /** Built-in kinds stay; a kind that pages use is a 409 (the foreign key from pages.kind decides). */
  async delete(actor: Actor, kind: string): Promise<void> {
    adminOnly(actor);
    if (BUILT_IN_PAGE_KINDS.includes(kind)) throw conflict(`Page type ${kind} is built in and cannot be deleted.`);
    if (!(await this.deps.pageTypes.delete(kind))) throw notFound(`Page type ${kind} not found.`);
  }
}

const adminOnly = (actor: Actor) => {
  if (!actor.isAdmin) throw forbidden('Administrators only.');
};
