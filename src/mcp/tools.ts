import {
  BlockCreateBody,
  BlockListQuery,
  BlockUpdateBody,
  PlaceholderSchemaQuery,
  SearchQuery,
  UsagesQuery,
} from '../http/schemas/blocks.js';
import { CatalogIdParams } from '../http/schemas/catalog.js';
import { DryRunQuery, IdParams, PageQuery } from '../http/schemas/common.js';
import {
  AddBlocksBody,
  BlockValuesBody,
  MoveBody,
  PageBlockParams,
  PageCreateBody,
  PageGetQuery,
  PageIdParams,
  PageListQuery,
  PageUpdateBody,
  ReplaceBody,
} from '../http/schemas/pages.js';
import { DiffQuery, VersionParams } from '../http/schemas/history.js';
import { FourcmsSettingsBody } from '../http/schemas/publishing.js';
import { PUBLICATION_TOOLS } from './publication-tools.js';
import { UPGRADE_TOOLS } from './upgrade-tools.js';
import { MIGRATION_TOOLS } from './migration-tools.js';
import { WEBHOOK_TOOLS } from './webhook-tools.js';
import type { ToolRoute } from './tool-route.js';

export type { ToolRoute };
import { SiteCreateBody } from '../http/schemas/sites.js';

/** The argument a tool takes for the route's `If-Match` header. */
export const TOOL_ROUTES: readonly ToolRoute[] = [
  {
    name: 'list_sites',
    description:
      'Step 1 of building a page: the sites of the key owner. A page belongs to exactly one site; use its `id` as the integer `site_id` of create_page.',
    method: 'GET',
    path: '/sites',
    query: PageQuery,
  },
  {
    name: 'create_site',
    description:
      'Make a site when the account has none (list_sites is empty) or the page belongs to a new one. Then set where ' +
      'it publishes with set_site_provider.',
    method: 'POST',
    path: '/sites',
    body: SiteCreateBody,
  },
  {
    name: 'set_site_provider',
    description:
      'Say where a site’s pages are published: the fourcms API address (`base_url`) and its `token`. The answer’s ' +
      '`check` tells whether the CMS accepted them (`ok`, else `error` says what is wrong); the settings are kept ' +
      'either way. The token is never shown again.',
    method: 'PUT',
    path: '/sites/:id/provider/fourcms',
    params: IdParams,
    body: FourcmsSettingsBody,
  },
  {
    name: 'check_site_provider',
    description:
      'Ask the site’s CMS whether the stored address and token work, before publishing or after a 502: `ok`, or ' +
      '`error` saying what is wrong (no provider set, the address did not answer, the token was refused).',
    method: 'POST',
    path: '/sites/:id/provider/check',
    params: IdParams,
  },
  {
    name: 'list_blocks',
    description:
      'Find blocks to build a page with: your blocks and the global ones. Filter by `search` (name and description), ' +
      '`tags` (comma-separated tag ids from list_tags) or `role` (`content` or `layout`). Then read a block’s ' +
      'contract with get_placeholder_schema.',
    method: 'GET',
    path: '/blocks',
    query: BlockListQuery,
    answer: 'hits',
  },
  {
    name: 'search_blocks',
    description:
      'Full-text search of blocks by name, description, docs and tags, best match first. `q` needs at least two characters.',
    method: 'GET',
    path: '/search/blocks',
    query: SearchQuery,
    answer: 'hits',
  },
  {
    name: 'list_tags',
    description: 'Block tags, for the `tags` filter of list_blocks.',
    method: 'GET',
    path: '/tags',
    query: PageQuery,
  },
  {
    name: 'get_block',
    description: 'One block with its current revision (template, schema_content, version).',
    method: 'GET',
    path: '/blocks/:id',
    params: IdParams,
  },
  {
    name: 'create_block',
    description:
      'Make a private block when no existing one fits (search_blocks first): a LiquidJS `template`, optional `css` ' +
      'and `js`, and `schema_content`, the fields its values have (each `{name, type, required?, ...}`; a live-data ' +
      'slot is `{name, type: "binding", allowed_sources, result_type}`). Mistakes come back as 422 at the field to ' +
      'fix. Then get_placeholder_schema gives the contract to put it on a page.',
    method: 'POST',
    path: '/blocks',
    body: BlockCreateBody,
  },
  {
    name: 'get_placeholder_schema',
    description:
      'The contract of a block, to call before putting it on a page: `schema` (JSON Schema of placeholder_values), ' +
      '`example` (valid values you may send as they are) and `binding_slots` (live-data slots). Pass `expand: ' +
      '"sources"` to get, in the same answer, each slot’s allowed sources with their params_schema and result type: ' +
      'then get_data_source and get_data_result_type are not needed.',
    method: 'GET',
    path: '/blocks/:id/placeholder-schema',
    params: IdParams,
    query: PlaceholderSchemaQuery,
  },
  {
    name: 'get_data_source',
    description:
      'A data source for a binding: `params_schema` (the keys of `params` are exactly its properties: never guess them) and `result_type_id`.',
    method: 'GET',
    path: '/data-sources/:id',
    params: CatalogIdParams,
  },
  {
    name: 'get_data_result_type',
    description: 'The shape of a source’s data: `schema_json` and the `stub` that previews show.',
    method: 'GET',
    path: '/data-result-types/:id',
    params: CatalogIdParams,
  },
  {
    name: 'create_page',
    description:
      'Create a page of a site from block instances, in order. Before: list_sites (site_id) and ' +
      'get_placeholder_schema for each block. On an error, fix exactly the fields named by errors[].path (read ' +
      '`code`, `expected` and `hint`) and call again. `dry_run: 1` checks everything and answers as the real call ' +
      'would, without writing.',
    method: 'POST',
    path: '/pages',
    query: DryRunQuery,
    body: PageCreateBody,
  },
  {
    name: 'list_pages',
    description:
      'Your pages. `has_outdated: 1` lists only pages with outdated block instances (the audit); ' +
      '`has_unpublished_changes: 1` only published pages changed since their last publication.',
    method: 'GET',
    path: '/pages',
    query: PageListQuery,
  },
  {
    name: 'get_page',
    description:
      'A page. `with_blocks: 1` includes its block instances (ids, values, versions, update_status); without it `blocks` is null.',
    method: 'GET',
    path: '/pages/:id',
    params: IdParams,
    query: PageGetQuery,
  },
  {
    name: 'update_page',
    description:
      'Change a page. With `blocks`, the whole block set is replaced; without it only the metadata (name, slug, site_id, meta_*) changes. ' +
      'Every page write takes `expected_version` (the page’s `version` from get_page): then a page someone else changed since is ' +
      'refused (412 version_conflict) instead of overwritten.',
    method: 'PUT',
    path: '/pages/:id',
    query: DryRunQuery,
    params: IdParams,
    body: PageUpdateBody,
    expects: 'page',
  },
  {
    name: 'add_blocks',
    description:
      'Add block instances to a page at a 0-based `position` (default: the end). Use `parent_page_block_id` to put ' +
      'blocks into a layout block already on the page.',
    method: 'POST',
    path: '/pages/:pageId/blocks',
    query: DryRunQuery,
    params: PageIdParams,
    body: AddBlocksBody,
    expects: 'page',
  },
  {
    name: 'update_block_values',
    description:
      'Change the placeholder_values or bindings of one instance on a page (checked against the revision it is pinned ' +
      'to). Get instance ids with get_page with_blocks=1.',
    method: 'PUT',
    path: '/pages/:pageId/blocks/:pbId',
    query: DryRunQuery,
    params: PageBlockParams,
    body: BlockValuesBody,
    expects: 'page',
  },
  {
    name: 'move_block',
    description: 'Move one instance to a 0-based position in the page’s order.',
    method: 'PUT',
    path: '/pages/:pageId/blocks/:pbId/move',
    query: DryRunQuery,
    params: PageBlockParams,
    body: MoveBody,
    expects: 'page',
  },
  {
    name: 'remove_block',
    description: 'Remove one instance (and its children) from a page.',
    method: 'DELETE',
    path: '/pages/:pageId/blocks/:pbId',
    query: DryRunQuery,
    params: PageBlockParams,
    expects: 'page',
  },
  {
    name: 'replace_block',
    description:
      'Replace one instance by a new one in the same position, pinned to the block’s current revision: the way ' +
      'through a major upgrade (carry the removed fields’ values over by hand).',
    method: 'PUT',
    path: '/pages/:pageId/blocks/:pbId/replace',
    query: DryRunQuery,
    params: PageBlockParams,
    body: ReplaceBody,
    expects: 'page',
  },
  {
    name: 'upgrade_block',
    description:
      'Move one outdated instance to its block’s current revision (minor changes only). A major change answers ' +
      'major_upgrade_blocked with removed_fields: then use replace_block.',
    method: 'POST',
    path: '/pages/:pageId/blocks/:pbId/upgrade',
    query: DryRunQuery,
    params: PageBlockParams,
    expects: 'page',
  },
  {
    name: 'upgrade_all_blocks',
    description:
      'All minor upgrades of a page at once (all or none); instances needing a major upgrade are listed in ' +
      'skipped_major for replace_block. Find pages to upgrade with list_pages has_outdated=1.',
    method: 'POST',
    path: '/pages/:pageId/blocks/upgrade-all',
    query: DryRunQuery,
    params: PageIdParams,
    expects: 'page',
  },
  {
    name: 'block_usages',
    description:
      'Your instances of one block on pages; `outdated: 1` lists only those behind the block’s current version.',
    method: 'GET',
    path: '/blocks/:id/usages',
    params: IdParams,
    query: UsagesQuery,
  },
  {
    name: 'update_block',
    description:
      'Change one of your private blocks. The answer’s version_bump says whether pages must follow: major (a field ' +
      'removed or renamed), minor or none. `dry_run: 1` tells the bump before making the change. Pass ' +
      '`expected_version` (the block’s `edit_version` from get_block) so that nobody else’s change is overwritten.',
    method: 'PUT',
    path: '/blocks/:id',
    query: DryRunQuery,
    params: IdParams,
    body: BlockUpdateBody,
    expects: 'block',
  },
  {
    name: 'preview_page',
    description:
      'Render a page as its readers will see it (stub data in live-data slots): a short text outline to read, and the ' +
      'HTML. Use it to check a page before publishing.',
    method: 'GET',
    path: '/pages/:id/preview',
    params: IdParams,
    answer: 'preview',
  },
  {
    name: 'list_page_versions',
    description:
      'A page’s history, newest first: every successful change made one version, with its number, who made it ' +
      '(user, and key, session or MCP), when, a one-line summary, and whether it was published. Use it to find the ' +
      'version to compare with (diff_page_versions) or to go back to (restore_page_version).',
    method: 'GET',
    path: '/pages/:id/versions',
    params: IdParams,
    query: PageQuery,
  },
  {
    name: 'get_page_version',
    description:
      'A page as it was at version `number` (the shape of get_page with blocks), each block with the version it was ' +
      'pinned to and its update_status against the block now.',
    method: 'GET',
    path: '/pages/:id/versions/:number',
    params: VersionParams,
  },
  {
    name: 'diff_page_versions',
    description:
      'What changed from version `number` to version `to` (default: the current one): blocks added, removed, moved, ' +
      'pins changed, values changed by path (blocks[2].placeholder_values.title, old and new), metadata changed.',
    method: 'GET',
    path: '/pages/:id/versions/:number/diff',
    params: VersionParams,
    query: DiffQuery,
  },
  {
    name: 'preview_page_version',
    description:
      'Render version `number` of a page exactly as it rendered then, with the block revisions it pinned: an outline ' +
      'and the HTML. A version whose block was deleted since cannot be rendered (409 at blocks[i]).',
    method: 'GET',
    path: '/pages/:id/versions/:number/preview',
    params: VersionParams,
    answer: 'preview',
  },
  {
    name: 'restore_page_version',
    description:
      'Undo: make a new version of the page equal to version `number`, pins as they were (an instance restored onto ' +
      'an older revision is outdated again). `dry_run: 1` answers the page as it would be and changes nothing. A block ' +
      'of that version deleted since, or no longer visible to you, is a 409 at blocks[i], and nothing changes. ' +
      '`expected_version` (the page’s `version` you read): a page changed since is refused (412 version_conflict).',
    method: 'POST',
    path: '/pages/:id/versions/:number/restore',
    params: VersionParams,
    query: DryRunQuery,
    expects: 'page',
  },
  ...UPGRADE_TOOLS,
  ...MIGRATION_TOOLS,
  ...PUBLICATION_TOOLS,
  ...WEBHOOK_TOOLS,
];
