import type { Actor } from '../../shared/actor.js';
import { fieldError, forbidden, notFound } from '../../shared/errors.js';
import { pageOf, type Page, type PageRequest } from '../../shared/pagination.js';
import type { Tag, TagsRepository } from './catalog.js';
import { SLUG_PATTERN, slugify } from './slug.js';

/**
 * One kind of tag: block tags (`/tags`) or layout tags (`/layout-tags`), the
 * same rules over two tables. Everyone reads them; administrators change them.
 */
export class TagsService {
  constructor(private readonly deps: { tags: TagsRepository; noun: 'Tag' | 'Layout tag' }) {}

  async list(page: PageRequest): Promise<Page<Tag>> {
    const { rows, total } = await this.deps.tags.list(page);
    return pageOf(rows, total, page);
  }

  async get(id: number): Promise<Tag> {
    const tag = await this.deps.tags.find(id);
    if (!tag) throw notFound(`${this.deps.noun} ${id} not found.`);
    return tag;
  }

  /** Without a slug, it is made from the name; a taken slug is a 409 at `slug` (the unique index decides). */
  async create(actor: Actor, input: { name: string; slug?: string }): Promise<Tag> {
    adminOnly(actor);
    const name = input.name.trim();
    return this.deps.tags.create({
      name,
      slug: input.slug !== undefined ? checkedSlug(input.slug) : derivedSlug(name),
    });
  }

  /** A new name keeps the slug: links made with it stay valid. */
  async update(actor: Actor, id: number, patch: { name?: string; slug?: string }): Promise<Tag> {
    adminOnly(actor);
    const updated = await this.deps.tags.update(id, {
      ...(patch.name !== undefined && { name: patch.name.trim() }),
      ...(patch.slug !== undefined && { slug: checkedSlug(patch.slug) }),
    });
    if (!updated) throw notFound(`${this.deps.noun} ${id} not found.`);
    return updated;
  }

  /** Blocks and layouts that carry the tag lose it. */
  async delete(actor: Actor, id: number): Promise<void> {
    adminOnly(actor);
    if (!(await this.deps.tags.delete(id))) throw notFound(`${this.deps.noun} ${id} not found.`);
  }
}

const adminOnly = (actor: Actor) => {
  if (!actor.isAdmin) throw forbidden('Administrators only.');
};

function checkedSlug(slug: string): string {
  if (!SLUG_PATTERN.test(slug))
    throw fieldError(
      'slug',
      'A slug is lowercase letters and digits joined by single hyphens (news, product-updates).',
    );
  return slug;
}

function derivedSlug(name: string): string {
  const slug = slugify(name);
  if (!slug) throw fieldError('slug', 'No slug can be made from this name: send a slug.');
  return slug;
}
