import type { PageBlock } from '../../modules/pages/pages.js';
import type { PageWithBlocks } from '../../modules/pages/pages.service.js';

/** An instance as the API shows it. */
export const presentPageBlock = (b: PageBlock) => ({
  id: b.id,
  block: { id: b.block.id, name: b.block.name, kind: b.block.kind },
  order_index: b.order_index,
  placeholder_values: b.placeholder_values,
  bindings: b.bindings,
  parent_page_block_id: b.parent_page_block_id,
  version: b.version,
  update_status: b.update_status,
});

export function presentPage(page: PageWithBlocks | (Omit<PageWithBlocks, 'blocks'> & { blocks?: null })) {
  return {
    id: page.id,
    name: page.name,
    kind: page.kind,
    site_id: page.site_id,
    folder_id: page.folder_id,
    slug: page.slug,
    meta_title: page.meta_title,
    meta_description: page.meta_description,
    meta_keywords: page.meta_keywords,
    meta_robots: page.meta_robots,
    is_published: page.is_published,
    has_outdated_blocks: page.has_outdated_blocks,
    created_at: page.created_at,
    updated_at: page.updated_at,
    version: page.version,
    blocks: page.blocks ? page.blocks.map(presentPageBlock) : null,
  };
}
