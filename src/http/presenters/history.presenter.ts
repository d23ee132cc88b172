import type { PageVersion } from '../../modules/pages/history.js';
import type { Page } from '../../modules/pages/pages.js';

/**
 * A version as `GET /pages/{id}?with_blocks=1` shows a page: its metadata and
 * instances as the version held them, each with its pin; `updated_at` is when
 * the version was made, `is_published` whether it went to the provider.
 */
export function presentVersion(page: Page, version: PageVersion) {
  const blocks = version.instances.map((b, i) => ({
    id: b.id,
    block: { id: b.block_id, name: b.block?.name ?? null, kind: b.block?.kind ?? null },
    order_index: i,
    placeholder_values: JSON.parse(b.placeholder_values_json) as Record<string, unknown>,
    bindings: b.bindings_json === null ? null : (JSON.parse(b.bindings_json) as Record<string, unknown>),
    parent_page_block_id: b.parent_page_block_id,
    version: b.version,
    update_status: b.update_status,
  }));
  return {
    id: page.id,
    ...version.fields,
    kind: page.kind,
    is_published: version.published,
    has_outdated_blocks: blocks.some((b) => b.update_status !== 'up_to_date'),
    created_at: page.created_at,
    updated_at: version.created_at,
    version: version.number,
    blocks,
  };
}
