import { Type } from 'typebox';
import { CATALOG_ID_PATTERN, PAGE_KIND_PATTERN } from '../../modules/catalog/catalog.js';
import { SLUG_PATTERN } from '../../modules/catalog/slug.js';
import { JsonObject, NonBlank, Timestamp, Int, named } from './common.js';

export const CatalogId = Type.String({
  pattern: CATALOG_ID_PATTERN.source,
  maxLength: 100,
  description: 'chosen at creation: lowercase, digits, `_`, `.`, `-`',
});
export const CatalogIdParams = Type.Object({ id: CatalogId });

const Stub = Type.Unknown({
  description: 'a sample of the data, valid against `schema_json`; previews show it in place of live data',
});
const SchemaJson = JsonObject({ description: 'JSON Schema (draft-07) of the data a source returns' });
const ParamsSchema = JsonObject({
  description:
    'JSON Schema (draft-07) of a binding’s `params`: an object with `additionalProperties: false`; its `properties` keys are exactly the allowed params',
});

export const DataResultTypeSchema = named(
  'DataResultType',
  Type.Object({
    id: Type.String(),
    title: Type.String(),
    schema_json: SchemaJson,
    stub: Stub,
    created_at: Timestamp,
    updated_at: Timestamp,
  }),
  { list: true },
);

export const DataResultTypeCreateBody = Type.Object({
  id: CatalogId,
  title: NonBlank({ maxLength: 255 }),
  schema_json: SchemaJson,
  stub: Stub,
});

export const DataResultTypeUpdateBody = Type.Object({
  title: Type.Optional(NonBlank({ maxLength: 255 })),
  schema_json: Type.Optional(SchemaJson),
  stub: Type.Optional(Stub),
});

export const DataSourceSchema = named(
  'DataSource',
  Type.Object({
    id: Type.String(),
    title: Type.String(),
    description: Type.String(),
    result_type_id: Type.String({ description: 'see GET /data-result-types/{id}' }),
    params_schema: ParamsSchema,
    created_at: Timestamp,
    updated_at: Timestamp,
  }),
  { list: true },
);

export const DataSourceCreateBody = Type.Object({
  id: CatalogId,
  title: NonBlank({ maxLength: 255 }),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  result_type_id: CatalogId,
  params_schema: ParamsSchema,
});

export const DataSourceUpdateBody = Type.Object({
  title: Type.Optional(NonBlank({ maxLength: 255 })),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  result_type_id: Type.Optional(CatalogId),
  params_schema: Type.Optional(ParamsSchema),
});

const Slug = (description = 'lowercase letters and digits joined by hyphens') =>
  Type.String({ pattern: SLUG_PATTERN.source, maxLength: 255, description });

export const TagSchema = named('Tag', Type.Object({ id: Int(), name: Type.String(), slug: Type.String() }), {
  list: true,
});

export const TagCreateBody = Type.Object({
  name: NonBlank({ maxLength: 255 }),
  slug: Type.Optional(Slug('unique; made from the name when absent: lowercase letters and digits joined by hyphens')),
});

export const TagUpdateBody = Type.Object({
  name: Type.Optional(NonBlank({ maxLength: 255 })),
  slug: Type.Optional(Slug()),
});

export const PageKind = Type.String({ pattern: PAGE_KIND_PATTERN.source, maxLength: 64 });
export const PageKindParams = Type.Object({ kind: PageKind });

export const PageTypeSchema = named(
  'PageType',
  Type.Object({
    kind: Type.String({ description: 'the value of a page’s `kind`' }),
    title: Type.String(),
  }),
  { list: true },
);

export const PageTypeCreateBody = Type.Object({ kind: PageKind, title: NonBlank({ maxLength: 255 }) });
export const PageTypeUpdateBody = Type.Object({ title: Type.Optional(NonBlank({ maxLength: 255 })) });
