import type { PageFields } from '../../../modules/pages/pages.js';

/*
 * A page's columns and its instances', each listed once. Every read and write
 * of this folder takes its list from here: a column added to a page is added
 * here, and the compiler names each statement that must show it.
 */

/** What a page write sets (the module's PageFields), in the order every statement lists them. */
export const FIELD_COLUMNS = [
  'name',
  'site_id',
  'folder_id',
  'slug',
  'meta_title',
  'meta_description',
  'meta_keywords',
  'meta_robots',
] as const satisfies ReadonlyArray<keyof PageFields>;

// Fails to compile when PageFields gains a field that FIELD_COLUMNS does not list.
type Unlisted = Exclude<keyof PageFields, (typeof FIELD_COLUMNS)[number]>;
export const everyFieldListed: [Unlisted] extends [never] ? true : Unlisted = true;

/** What a page's answers show of its row (GET /pages/{id}, a write's answer), besides `has_outdated_blocks`. */
export const HEAD_COLUMNS = [
  'id',
  'owner_id',
  'kind',
  ...FIELD_COLUMNS,
  'is_published',
  'created_at',
  'updated_at',
  'version',
] as const;

/** Its publication state (`is_published` is in the head too). */
export const PUBLICATION_COLUMNS = [
  'is_published',
  'external_id',
  'external_slug',
  'published_at',
  'publication_updated_at',
  'publication_error',
  'publication_error_at',
] as const;

/** The row as the module's Page has it: the head and the publication state. */
export const PAGE_COLUMNS = [...HEAD_COLUMNS, ...PUBLICATION_COLUMNS.filter((c) => c !== 'is_published')];

type PageColumn = (typeof PAGE_COLUMNS)[number];

/** What rendering and publication read of the row (never the folder or the meta keywords and robots). */
export const RENDERED_COLUMNS = [
  'id',
  'owner_id',
  'kind',
  'name',
  'site_id',
  'slug',
  'meta_title',
  'meta_description',
  'version',
  ...PUBLICATION_COLUMNS,
] as const satisfies readonly PageColumn[];

/** `pages.<column>` for each, for statements that join other tables. */
export const qualified = <C extends string>(columns: readonly C[]) => columns.map((c) => `pages.${c}` as const);

/** An instance as a page's answer shows it: `pb` its row, `b` its block (besides its update status). */
export const INSTANCE_VIEW_COLUMNS = [
  'pb.id',
  'pb.block_id',
  'b.name as block_name',
  'b.kind as block_kind',
  'pb.order_index',
  'pb.placeholder_values',
  'pb.bindings',
  'pb.parent_page_block_id',
  'pb.major',
  'pb.minor',
] as const;

/** The instance as the module's PageBlock has it: the view's, `pin` its pinned revision and `cur` its block's current one. */
export const INSTANCE_COLUMNS = [
  ...INSTANCE_VIEW_COLUMNS,
  'pb.page_id',
  'b.block_type',
  'pb.revision_id',
  // The pinned revision's fields: `pin`, joined by `pb.revision_id` (revisions never change).
  'pin.schema_content as schema_snapshot',
  'cur.major as cur_major',
  'cur.minor as cur_minor',
] as const;

/** What rendering reads of each instance (its fields come once per revision, not here). */
export const RENDERED_INSTANCE_COLUMNS = [
  'pb.id',
  'pb.parent_page_block_id',
  'pb.block_id',
  'b.block_type',
  'b.kind as block_kind',
  'pb.major',
  'pb.minor',
  'pb.placeholder_values',
  'pb.bindings',
  'pb.revision_id',
] as const satisfies ReadonlyArray<(typeof INSTANCE_COLUMNS)[number]>;
