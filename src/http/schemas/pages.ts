import { Type } from 'typebox';
import { VersionSchema } from './blocks.js';
import {
  Id,
  JsonObject,
  NonBlank,
  Nullable,
  PageQueryProperties,
  Timestamp,
  Int,
  named,
  namedBody,
  withExample,
} from './common.js';

const FreeObject = JsonObject();
const Meta = (description: string) => Type.Optional(Nullable(Type.String({ maxLength: 2000, description })));

export const PageBlockInput = Type.Object({
  block_id: Id,
  placeholder_values: Type.Optional(JsonObject({ description: 'values by the block’s placeholder schema' })),
  bindings: Type.Optional(JsonObject({ description: 'by slot name: {source, params}' })),
  parent_page_block_id: Type.Optional(Id),
});

const pageInputProperties = {
  kind: Type.Optional(
    Type.String({ maxLength: 64, description: 'GET /page-types; default article; fixed at creation' }),
  ),
  slug: Type.Optional(Nullable(Type.String({ maxLength: 255, description: 'unique within the site; articles only' }))),
  folder_id: Type.Optional(Nullable(Id)),
  meta_title: Meta('flat top-level field'),
  meta_description: Meta('flat top-level field'),
  meta_keywords: Meta('flat top-level field'),
  meta_robots: Meta('flat top-level field'),
  blocks: Type.Optional(Type.Array(PageBlockInput, { maxItems: 500, description: 'the blocks of the page, in order' })),
};

export const PageCreateBody = namedBody(
  'PageCreateBody',
  Type.Object({
    name: NonBlank({ maxLength: 255, description: 'the field is name, not title' }),
    site_id: Int({ minimum: 1, description: 'a number, not a string' }),
    ...pageInputProperties,
  }),
  {
    name: 'Home',
    site_id: 1,
    slug: 'home',
    blocks: [
      {
        block_id: 6,
        placeholder_values: { title: 'Welcome' },
        bindings: { news: { source: 'articles.latest', params: { limit: 3 } } },
      },
    ],
  },
);

export const PageUpdateBody = namedBody(
  'PageUpdateBody',
  Type.Object({
    name: Type.Optional(NonBlank({ maxLength: 255 })),
    site_id: Type.Optional(Int({ minimum: 1 })),
    ...pageInputProperties,
  }),
  { name: 'Home', meta_title: 'Welcome to my blog' },
);

const PAGE_BLOCK_EXAMPLE = {
  id: 1,
  block: { id: 6, name: 'Hero', kind: 'content' },
  order_index: 0,
  placeholder_values: { title: 'Welcome' },
  bindings: { news: { source: 'articles.latest', params: { limit: 3 } } },
  parent_page_block_id: null,
  version: { major: 1, minor: 0 },
  update_status: 'up_to_date',
};

export const PageBlockSchema = named(
  'PageBlock',
  Type.Object({
    id: Int(),
    block: Type.Object({
      id: Int(),
      name: Type.String(),
      kind: Type.String({ description: '`layout` blocks hold children (parent_page_block_id)' }),
    }),
    order_index: Int(),
    placeholder_values: FreeObject,
    bindings: Nullable(FreeObject),
    parent_page_block_id: Nullable(Int()),
    version: VersionSchema,
    update_status: Type.String({ enum: ['up_to_date', 'outdated_minor', 'outdated_major'] }),
  }),
  { example: PAGE_BLOCK_EXAMPLE },
);

/** As answered with `with_blocks=1`; a list's pages have `blocks: null`. */
export const PAGE_EXAMPLE = {
  id: 1,
  name: 'Home',
  kind: 'article',
  site_id: 1,
  folder_id: null,
  slug: 'home',
  meta_title: null,
  meta_description: null,
  meta_keywords: null,
  meta_robots: null,
  is_published: false,
  has_outdated_blocks: false,
  created_at: '2026-01-05T10:02:00.000Z',
  updated_at: '2026-01-05T10:02:00.000Z',
  version: 3,
  blocks: [PAGE_BLOCK_EXAMPLE],
};

/** A page's properties, which a version's answer shows too (PageVersion). */
export const PAGE_PROPERTIES = {
  id: Int(),
  name: Type.String(),
  kind: Type.String(),
  site_id: Nullable(Int({ description: 'null: the site was deleted; set another with PUT' })),
  folder_id: Nullable(Int()),
  slug: Nullable(Type.String()),
  meta_title: Nullable(Type.String()),
  meta_description: Nullable(Type.String()),
  meta_keywords: Nullable(Type.String()),
  meta_robots: Nullable(Type.String()),
  is_published: Type.Boolean(),
  has_outdated_blocks: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
  version: Int({
    minimum: 1,
    description:
      "the number of the page's latest version: every successful write makes the next one (GET /pages/{id}/versions)",
  }),
  blocks: Nullable(Type.Array(PageBlockSchema, { description: 'null unless with_blocks=1: not requested, not empty' })),
};

export const PAGE_EXAMPLE_WITH_BLOCKS = PAGE_EXAMPLE;

export const PageSchema = named('Page', Type.Object(PAGE_PROPERTIES), {
  list: true,
  example: PAGE_EXAMPLE,
  listItem: { ...PAGE_EXAMPLE, blocks: null },
});

export const PageListQuery = Type.Object({
  ...PageQueryProperties,
  has_outdated: Type.Optional(Int({ enum: [0, 1], description: '1: only pages with outdated blocks' })),
  has_unpublished_changes: Type.Optional(
    Int({
      enum: [0, 1],
      description: '1: only published pages changed since their last publication (`has_unpublished_changes`)',
    }),
  ),
});

export const PageGetQuery = Type.Object({
  with_blocks: Type.Optional(Int({ enum: [0, 1], description: '1: include the blocks' })),
});

export const PageBlockParams = Type.Object({ pageId: Id, pbId: Id });
export const PageIdParams = Type.Object({ pageId: Id });

export const AddBlocksBody = namedBody(
  'AddBlocksBody',
  Type.Object({
    blocks: Type.Array(PageBlockInput, { minItems: 1, maxItems: 500 }),
    position: Type.Optional(Int({ description: '0-based index in the page’s order; default the end' })),
  }),
  { blocks: [{ block_id: 6, placeholder_values: { title: 'Welcome' } }], position: 0 },
);

export const MoveBody = namedBody(
  'MoveBody',
  Type.Object({
    position: Int({ description: '0-based index in the page’s order' }),
    parent_page_block_id: Type.Optional(
      Nullable(
        Int({
          minimum: 1,
          description:
            'a layout instance of the page to move it into; null takes it out of its layout; absent keeps it',
        }),
      ),
    ),
  }),
  { position: 0 },
);

export const BlockValuesBody = namedBody(
  'BlockValuesBody',
  Type.Object({
    placeholder_values: Type.Optional(JsonObject()),
    bindings: Type.Optional(Nullable(JsonObject())),
  }),
  { placeholder_values: { title: 'Hello again' } },
);

export const ReplaceBody = namedBody(
  'ReplaceBody',
  Type.Object({
    block_id: Id,
    placeholder_values: JsonObject(),
  }),
  { block_id: 6, placeholder_values: { title: 'Welcome' } },
);

export const ReplaceResult = withExample(
  Type.Object({ id: Int({ description: 'the new instance' }), page: PageSchema }),
  { id: 2, page: { ...PAGE_EXAMPLE, blocks: [{ ...PAGE_BLOCK_EXAMPLE, id: 2 }] } },
);

export const UpgradeAllSchema = withExample(
  Type.Object({
    upgraded: Type.Array(Type.Object({ id: Int(), from: VersionSchema, to: VersionSchema })),
    skipped_major: Type.Array(
      Type.Object({
        id: Int(),
        current_pin: VersionSchema,
        library_version: VersionSchema,
        removed_fields: Type.Array(Type.String()),
        migratable: Type.Boolean({
          description: 'every removed field is carried or dropped by the migrations on the way: migrate takes it',
        }),
      }),
    ),
    already_up_to_date: Type.Array(Int()),
  }),
  {
    upgraded: [{ id: 1, from: { major: 1, minor: 0 }, to: { major: 1, minor: 1 } }],
    skipped_major: [
      {
        id: 3,
        current_pin: { major: 1, minor: 1 },
        library_version: { major: 2, minor: 0 },
        removed_fields: ['subtitle'],
        migratable: true,
      },
    ],
    already_up_to_date: [2],
  },
);

export const MajorUpgradeBlocked = Type.Object(
  {
    error: Type.String({ description: 'major_upgrade_blocked' }),
    message: Type.String(),
    current_pin: VersionSchema,
    library_version: VersionSchema,
    removed_fields: Type.Array(Type.String()),
    migratable: Type.Boolean({
      description:
        'every removed field is carried or dropped by the migrations on the way: POST /pages/{pageId}/blocks/{pbId}/migrate takes it',
    }),
  },
  { additionalProperties: true },
);

/** What every write that can grow a page says of its bounds (their figures are the server's). */
export const PAGE_BOUNDS_NOTE =
  "A page has two bounds, checked at every write that can grow it: its JSON (its fields, and each instance's " +
  "block, values and bindings; the server's `PAGE_JSON_LIMIT_KB`, 1 MiB unless set) and its HTML as rendered with " +
  'stub data (2 Mi characters). Past either: 422 `too_large` at the place that takes it over, with the limit and the figure.';
