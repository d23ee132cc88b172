import { Type } from 'typebox';
import { FIELD_TYPES, MAX_FIELD_DEPTH } from '../../modules/blocks/schema/field-vocabulary.js';
import {
  JsonObject,
  NonBlank,
  Nullable,
  StringEnum,
  PageQueryProperties,
  Timestamp,
  Int,
  named,
  namedBody,
  withExample,
} from './common.js';
import { MigrationsInput } from './migrations.js';

const VERSION_EXAMPLE = { major: 1, minor: 0 };
export const VersionSchema = named('Version', Type.Object({ major: Int(), minor: Int() }), {
  example: VERSION_EXAMPLE,
});
const FreeObject = JsonObject();

/**
 * The words of the field format (`schema_content`), named for clients that
 * build fields: the web app's field editor offers exactly these, read from the
 * document. A field's `type` is one of FieldType; fields nest (an object's
 * fields, an array's items) at most FieldNesting's `max_depth` levels deep, the
 * top level being 1 (the one value of its enum).
 */
named('FieldType', StringEnum(FIELD_TYPES), { example: 'string' });
named('FieldNesting', Type.Object({ max_depth: Type.Integer({ enum: [MAX_FIELD_DEPTH] }) }), {
  example: { max_depth: MAX_FIELD_DEPTH },
});

const REVISION_EXAMPLE = {
  id: 6,
  version: VERSION_EXAMPLE,
  template_content: '<h1>{{ title }}</h1>',
  css: '',
  js: '',
  schema_content: [{ name: 'title', type: 'string', required: true, max_length: 80 }],
  changelog: null,
  created_at: '2026-01-05T10:01:00.000Z',
};

export const RevisionSchema = named(
  'Revision',
  Type.Object({
    id: Int(),
    version: VersionSchema,
    template_content: Type.String(),
    css: Type.String(),
    js: Type.String(),
    schema_content: Type.Array(FreeObject),
    changelog: Nullable(Type.String()),
    created_at: Timestamp,
  }),
  { example: REVISION_EXAMPLE },
);

export const BLOCK_EXAMPLE = {
  id: 6,
  name: 'Hero',
  description: 'A heading for the top of a page.',
  docs: '',
  block_type: 'schema' as const,
  kind: 'content',
  scope: 'user',
  tags: [1],
  version: VERSION_EXAMPLE,
  current_revision: REVISION_EXAMPLE,
  is_favorite: false,
  is_deprecated: false,
  fork_count: 0,
  forked_from_id: null,
  cover_url: null,
  edit_version: 1,
  created_at: '2026-01-05T10:01:00.000Z',
  updated_at: '2026-01-05T10:01:00.000Z',
};

export const BlockSchema = named(
  'Block',
  Type.Object({
    id: Int(),
    name: Type.String(),
    description: Type.String(),
    docs: Type.String({ description: 'Markdown documentation' }),
    block_type: Nullable(Type.String({ enum: ['schema', 'markdown'] })),
    kind: Type.String({ enum: ['content', 'layout'] }),
    scope: Type.String({ enum: ['global', 'user'] }),
    tags: Type.Array(Int(), { description: 'tag ids' }),
    version: Nullable(VersionSchema),
    current_revision: Nullable(RevisionSchema),
    is_favorite: Type.Boolean(),
    is_deprecated: Type.Boolean(),
    fork_count: Int(),
    forked_from_id: Nullable(Int()),
    cover_url: Nullable(Type.String({ description: 'a path, e.g. /uploads/covers/…' })),
    edit_version: Int({
      minimum: 1,
      description:
        'counts the changes of the block (fields, tags, a new revision, deprecation, cover), from 1: its `ETag` ' +
        '(`W/"3"`). Send it back as `If-Match` (MCP: `expected_version`) so that a change is refused with 412 if ' +
        'someone else changed the block since you read it. Not `version`, which is the current revision’s',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  }),
  { list: true, example: BLOCK_EXAMPLE },
);

const COVER_URL = '/uploads/covers/6-hero.png';

const blockInputProperties = {
  description: Type.Optional(Type.String({ maxLength: 10_000 })),
  docs: Type.Optional(Type.String({ maxLength: 200_000, description: 'Markdown documentation' })),
  block_type: Type.Optional(Nullable(StringEnum(['schema', 'markdown']))),
  tags: Type.Optional(Type.Array(Int({ minimum: 1 }), { maxItems: 100, description: 'tag ids (GET /tags)' })),
  template: Type.Optional(Type.String({ maxLength: 262_144, description: 'LiquidJS HTML template' })),
  css: Type.Optional(Type.String({ maxLength: 262_144 })),
  js: Type.Optional(Type.String({ maxLength: 262_144 })),
  // Checked by the block-schema rules, which answer 422 with exact paths.
  schema_content: Type.Optional(
    Type.Array(Type.Unknown(), {
      maxItems: 200,
      description: 'field definitions: each `type` one of FieldType, nested at most FieldNesting.max_depth levels deep',
    }),
  ),
  changelog: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
};

export const BlockCreateBody = namedBody(
  'BlockCreateBody',
  Type.Object({
    name: NonBlank({ maxLength: 255 }),
    kind: Type.Optional(StringEnum(['content', 'layout'], { description: 'fixed at creation; default content' })),
    ...blockInputProperties,
  }),
  {
    name: 'Hero',
    template: '<h1>{{ title }}</h1><ul>{% for a in news %}<li>{{ a.title }}</li>{% endfor %}</ul>',
    schema_content: [
      { name: 'title', type: 'string', required: true, max_length: 80 },
      { name: 'news', type: 'binding', allowed_sources: ['articles.latest'], result_type: 'article_list' },
    ],
  },
);

export const BlockUpdateBody = namedBody(
  'BlockUpdateBody',
  Type.Object({
    name: Type.Optional(NonBlank({ maxLength: 255 })),
    kind: Type.Optional(StringEnum(['content', 'layout'], { description: 'cannot change' })),
    ...blockInputProperties,
    migrations: Type.Optional(MigrationsInput),
  }),
  { template: '<h1 class="hero">{{ title }}</h1>', changelog: 'A class for the heading' },
);

export const RevisionEntrySchema = named(
  'RevisionEntry',
  Type.Object({
    id: Int(),
    version: VersionSchema,
    version_bump: Nullable(
      Type.String({
        enum: ['major', 'minor'],
        description: 'the step from the revision before it; null for the first revision',
      }),
    ),
    changelog: Nullable(Type.String()),
    created_at: Timestamp,
  }),
  {
    list: true,
    example: {
      id: 6,
      version: VERSION_EXAMPLE,
      version_bump: null,
      changelog: null,
      created_at: '2026-01-05T10:01:00.000Z',
    },
  },
);

export const BlockListQuery = Type.Object({
  ...PageQueryProperties,
  search: Type.Optional(Type.String({ maxLength: 255, description: 'by name and description' })),
  tags: Type.Optional(
    Type.String({ pattern: '^\\d+(,\\d+)*$', description: 'comma-separated tag ids: blocks having all of them' }),
  ),
  role: Type.Optional(StringEnum(['content', 'layout'], { description: 'layout: kind = layout; absent: both' })),
});

export const SearchQuery = Type.Object({
  ...PageQueryProperties,
  q: Type.String({ minLength: 2, maxLength: 255, description: 'at least two characters' }),
});

export const ForkBody = namedBody(
  'ForkBody',
  Type.Union([Type.Object({ name: Type.Optional(Nullable(NonBlank({ maxLength: 255 }))) }), Type.Null()]),
  { name: 'My hero' },
);

export const UsagesQuery = Type.Object({
  ...PageQueryProperties,
  outdated: Type.Optional(Int({ enum: [0, 1], description: '1: only instances that are not up to date' })),
});

const USAGE_EXAMPLE = { id: 1, page_id: 1, page_name: 'Home', version: VERSION_EXAMPLE, update_status: 'up_to_date' };

export const UsageSchema = named(
  'Usage',
  Type.Object({
    id: Int({ description: 'page-block instance id' }),
    page_id: Int(),
    page_name: Type.String(),
    version: VersionSchema,
    update_status: Type.String({ enum: ['up_to_date', 'outdated_minor', 'outdated_major'] }),
  }),
  { example: USAGE_EXAMPLE },
);

export const UsagesPage = withExample(
  Type.Object({
    data: Type.Array(UsageSchema),
    total: Int(),
    limit: Int(),
    offset: Int(),
    outdated_total: Int({ description: 'all outdated instances, whatever the filter' }),
  }),
  { data: [USAGE_EXAMPLE], total: 1, limit: 50, offset: 0, outdated_total: 0 },
);

export const BindingSlotSchema = Type.Object({
  name: Type.String(),
  allowed_sources: Type.Array(Type.String()),
  default: Nullable(
    Type.Object({ source: Type.String(), params: Type.Optional(JsonObject()) }, { additionalProperties: true }),
  ),
  result_type: Nullable(Type.String()),
});

export const SourceContractSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  params_schema: Type.Object(
    {},
    {
      additionalProperties: true,
      description: 'JSON Schema of `params`: its `properties` keys are exactly the allowed keys',
    },
  ),
  result_type: Type.Object({
    id: Type.String(),
    title: Type.String(),
    schema_json: Type.Object({}, { additionalProperties: true, description: 'JSON Schema of the data' }),
    stub: Type.Unknown({ description: 'the sample that previews show in place of live data' }),
  }),
});

export const PlaceholderSchemaResponse = withExample(
  Type.Object({
    block_type: Type.String({ enum: ['schema', 'markdown'] }),
    schema: JsonObject({
      description:
        'Draft-07 JSON Schema of placeholder_values. Every property names its widget in `x-widget` (an annotation): ' +
        'input, textarea (line breaks kept), richtext (HTML, contentMediaType text/html, sanitized when saved), url, ' +
        'image, color, date, number, checkbox, select, list (array), group (object).',
    }),
    example: FreeObject,
    binding_slots: Type.Array(
      Type.Object({
        ...BindingSlotSchema.properties,
        sources: Type.Optional(
          Type.Array(SourceContractSchema, {
            description: 'with expand=sources: each allowed source, its params_schema and its result type',
          }),
        ),
      }),
    ),
  }),
  {
    block_type: 'schema',
    schema: {
      type: 'object',
      required: ['title'],
      properties: {
        title: { type: 'string', title: 'Title', maxLength: 80, 'x-widget': 'input' },
        body: { type: 'string', title: 'Text', 'x-widget': 'textarea' },
      },
    },
    example: { title: '', body: '' },
    binding_slots: [{ name: 'news', allowed_sources: ['articles.latest'], default: null, result_type: 'article_list' }],
  },
);

export const PlaceholderSchemaQuery = Type.Object({
  expand: Type.Optional(
    Type.String({
      enum: ['sources'],
      description: 'sources: inline each slot’s allowed sources with params_schema, schema_json and stub',
    }),
  ),
  version: Type.Optional(
    Type.String({
      // Nine digits a part at most: an integer column holds them on both databases.
      pattern: '^(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})$',
      description:
        'major.minor (e.g. `1.0`): the contract of that revision instead of the current one, as an instance pinned to it is checked',
    }),
  ),
});

export const DeprecationBody = namedBody('DeprecationBody', Type.Object({ is_deprecated: Type.Boolean() }), {
  is_deprecated: true,
});

export const CoverResult = withExample(
  Type.Object({ block: BlockSchema, url: Type.String({ description: 'a path: /uploads/…' }) }),
  { block: { ...BLOCK_EXAMPLE, cover_url: COVER_URL, edit_version: 2 }, url: COVER_URL },
);
