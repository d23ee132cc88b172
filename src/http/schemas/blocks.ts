import { Type } from 'typebox';
import { JsonObject, NonBlank, Nullable, StringEnum, PageQueryProperties, Timestamp, Int, named } from './common.js';

export const VersionSchema = named('Version', Type.Object({ major: Int(), minor: Int() }));
const FreeObject = JsonObject();

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
);

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
    created_at: Timestamp,
    updated_at: Timestamp,
  }),
  { list: true },
);

const blockInputProperties = {
  description: Type.Optional(Type.String({ maxLength: 10_000 })),
  docs: Type.Optional(Type.String({ maxLength: 200_000, description: 'Markdown documentation' })),
  block_type: Type.Optional(Nullable(StringEnum(['schema', 'markdown']))),
  tags: Type.Optional(Type.Array(Int({ minimum: 1 }), { maxItems: 100, description: 'tag ids (GET /tags)' })),
  template: Type.Optional(Type.String({ maxLength: 262_144, description: 'LiquidJS HTML template' })),
  css: Type.Optional(Type.String({ maxLength: 262_144 })),
  js: Type.Optional(Type.String({ maxLength: 262_144 })),
  // Checked by the block-schema rules, which answer 422 with exact paths.
  schema_content: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 200, description: 'field definitions' })),
  changelog: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
};

export const BlockCreateBody = Type.Object({
  name: NonBlank({ maxLength: 255 }),
  kind: Type.Optional(StringEnum(['content', 'layout'], { description: 'fixed at creation; default content' })),
  ...blockInputProperties,
});

export const BlockUpdateBody = Type.Object({
  name: Type.Optional(NonBlank({ maxLength: 255 })),
  kind: Type.Optional(StringEnum(['content', 'layout'], { description: 'cannot change' })),
  ...blockInputProperties,
});

export const BlockUpdateResult = Type.Object({
  block: BlockSchema,
  version_bump: Type.String({ enum: ['major', 'minor', 'none'] }),
  removed_fields: Type.Array(Type.String(), {
    description:
      'the fields the change removes or renames (their old names), at any depth: `title`, `author.name`, ' +
      '`items[].caption`; empty unless major. With dry_run=1, the warning to show before saving',
  }),
});

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
  { list: true },
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

export const ForkBody = Type.Union([
  Type.Object({ name: Type.Optional(Nullable(NonBlank({ maxLength: 255 }))) }),
  Type.Null(),
]);

export const UsagesQuery = Type.Object({
  ...PageQueryProperties,
  outdated: Type.Optional(Int({ enum: [0, 1], description: '1: only instances that are not up to date' })),
});

export const UsageSchema = named(
  'Usage',
  Type.Object({
    id: Int({ description: 'page-block instance id' }),
    page_id: Int(),
    page_name: Type.String(),
    version: VersionSchema,
    update_status: Type.String({ enum: ['up_to_date', 'outdated_minor', 'outdated_major'] }),
  }),
);

export const UsagesPage = Type.Object({
  data: Type.Array(UsageSchema),
  total: Int(),
  limit: Int(),
  offset: Int(),
  outdated_total: Int({ description: 'all outdated instances, whatever the filter' }),
});

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

export const PlaceholderSchemaResponse = Type.Object({
  block_type: Type.String({ enum: ['schema', 'markdown'] }),
  schema: FreeObject,
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
});

export const PlaceholderSchemaQuery = Type.Object({
  expand: Type.Optional(
    Type.String({
      enum: ['sources'],
      description: 'sources: inline each slot’s allowed sources with params_schema, schema_json and stub',
    }),
  ),
});

export const DeprecationBody = Type.Object({ is_deprecated: Type.Boolean() });

export const CoverResult = Type.Object({ block: BlockSchema, url: Type.String({ description: 'a path: /uploads/…' }) });
