import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';

/** Full-text search over pages (name, slug, meta fields), filled for the pages that exist. */
export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await d.pageSearch.migrate(db);
  const pages = await db
    .selectFrom('pages')
    .select(['id', 'name', 'slug', 'meta_title', 'meta_description', 'meta_keywords'])
    .execute();
  for (const page of pages) {
    await d.pageSearch.index(db, page.id, {
      name: page.name,
      slug: (page.slug ?? '').replace(/-/g, ' '),
      meta: [page.meta_title, page.meta_description, page.meta_keywords].filter(Boolean).join(' '),
    });
  }
}
