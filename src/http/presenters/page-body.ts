import type { PageBlockView, PageView } from '../../modules/pages/pages.js';

/*
 * The answer of a page (the Page schema) written by hand, byte for byte as the
 * route's compiled serializer writes presentPage's object: the same keys in the
 * same order, strings escaped by JSON.stringify, and each instance's stored
 * values spliced in as they are (test/api/page-body.test.ts compares the two).
 * The serializer spent a tenth of a page read on the free-form values.
 */

const text = JSON.stringify;
const orNull = (value: string | number | null) => (value === null ? 'null' : text(value));

const blockBody = (b: PageBlockView): string =>
  `{"id":${b.id},"block":{"id":${b.block.id},"name":${text(b.block.name)},"kind":${text(b.block.kind)}}` +
  `,"order_index":${b.order_index},"placeholder_values":${b.placeholder_values_json}` +
  `,"bindings":${b.bindings_json ?? 'null'},"parent_page_block_id":${orNull(b.parent_page_block_id)}` +
  `,"version":{"major":${b.version.major},"minor":${b.version.minor}},"update_status":${text(b.update_status)}}`;

const blocksBody = (blocks: PageView['blocks']): string =>
  blocks === null ? 'null' : Array.isArray(blocks) ? `[${blocks.map(blockBody).join(',')}]` : blocks.json;

export function pageBody(page: PageView): string {
  return (
    `{"id":${page.id},"name":${text(page.name)},"kind":${text(page.kind)}` +
    `,"site_id":${orNull(page.site_id)},"folder_id":${orNull(page.folder_id)},"slug":${orNull(page.slug)}` +
    `,"meta_title":${orNull(page.meta_title)},"meta_description":${orNull(page.meta_description)}` +
    `,"meta_keywords":${orNull(page.meta_keywords)},"meta_robots":${orNull(page.meta_robots)}` +
    `,"is_published":${page.is_published},"has_outdated_blocks":${page.has_outdated_blocks}` +
    `,"created_at":${text(page.created_at)},"updated_at":${text(page.updated_at)},"version":${page.version}` +
    `,"blocks":${blocksBody(page.blocks)}}`
  );
}
