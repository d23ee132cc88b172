import { Type } from 'typebox';
import { CATALOG_ID_PATTERN, PAGE_KIND_PATTERN } from '../../modules/catalog/catalog.js';
import { SLUG_PATTERN } from '../../modules/catalog/slug.js';
import { JsonObject, NonBlank, Timestamp, Int, named, namedBody } from './common.js';

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

const ARTICLE_LIST_EXAMPLE = {
  id: 'article_list',
  title: 'List of articles',
  schema_json: {
    type: 'array',
    items: {
      type: 'object',
      required: ['id', 'title', 'url'],
      properties: { id: { type: 'integer' }, title: { type: 'string' }, url: { type: 'string' } },
    },
  },
  stub: [{ id: 101, title: 'How we redesigned our homepage', url: '/articles/homepage-redesign' }],
};

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
  {
    list: true,
    example: {
      ...ARTICLE_LIST_EXAMPLE,
      created_at: '2026-01-05T10:00:00.000Z',
      updated_at: '2026-01-05T10:00:00.000Z',
    },
  },
);

export const DataResultTypeCreateBody = namedBody(
  'DataResultTypeCreateBody',
  Type.Object({
    id: CatalogId,
    title: NonBlank({ maxLength: 255 }),
    schema_json: SchemaJson,
    stub: Stub,
  }),
  { ...ARTICLE_LIST_EXAMPLE, id: 'news_list', title: 'List of news' },
);

export const DataResultTypeUpdateBody = namedBody(
  'DataResultTypeUpdateBody',
  Type.Object({
    title: Type.Optional(NonBlank({ maxLength: 255 })),
    schema_json: Type.Optional(SchemaJson),
    stub: Type.Optional(Stub),
  }),
  { title: 'List of news items' },
);

const ARTICLES_SOURCE_EXAMPLE = {
  id: 'articles.latest',
  title: 'Latest articles',
  description: 'The newest articles of the site, optionally filtered by a text.',
  result_type_id: 'article_list',
  params_schema: {
    type: 'object',
    additionalProperties: false,
    properties: { limit: { type: 'integer', minimum: 1, maximum: 50, default: 3 } },
  },
};

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
  {
    list: true,
    example: {
      ...ARTICLES_SOURCE_EXAMPLE,
      created_at: '2026-01-05T10:00:00.000Z',
      updated_at: '2026-01-05T10:00:00.000Z',
    },
  },
);

export const DataSourceCreateBody = namedBody(
  'DataSourceCreateBody',
  Type.Object({
    id: CatalogId,
    title: NonBlank({ maxLength: 255 }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    result_type_id: CatalogId,
    params_schema: ParamsSchema,
  }),
  { ...ARTICLES_SOURCE_EXAMPLE, id: 'articles.popular', title: 'Popular articles' },
);

export const DataSourceUpdateBody = namedBody(
  'DataSourceUpdateBody',
  Type.Object({
    title: Type.Optional(NonBlank({ maxLength: 255 })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    result_type_id: Type.Optional(CatalogId),
    params_schema: Type.Optional(ParamsSchema),
  }),
  { description: 'The most read articles of the week.' },
);

const Slug = (description = 'lowercase letters and digits joined by hyphens') =>
  Type.String({ pattern: SLUG_PATTERN.source, maxLength: 255, description });

export const TagSchema = named('Tag', Type.Object({ id: Int(), name: Type.String(), slug: Type.String() }), {
  list: true,
  example: { id: 1, name: 'Hero', slug: 'hero' },
});

export const TagCreateBody = namedBody(
  'TagCreateBody',
  Type.Object({
    name: NonBlank({ maxLength: 255 }),
    slug: Type.Optional(Slug('unique; made from the name when absent: lowercase letters and digits joined by hyphens')),
  }),
  { name: 'Hero' },
);

export const TagUpdateBody = namedBody(
  'TagUpdateBody',
  Type.Object({
    name: Type.Optional(NonBlank({ maxLength: 255 })),
    slug: Type.Optional(Slug()),
  }),
  { name: 'Heroes', slug: 'heroes' },
);

export const PageKind = Type.String({ pattern: PAGE_KIND_PATTERN.source, maxLength: 64 });
export const PageKindParams = Type.Object({ kind: PageKind });

export const PageTypeSchema = named(
  'PageType',
  Type.Object({
    kind: Type.String({ description: 'the value of a page’s `kind`' }),
    title: Type.String(),
  }),
  { list: true, example: { kind: 'article', title: 'Article' } },
);

export const PageTypeCreateBody = namedBody(
  'PageTypeCreateBody',
  Type.Object({ kind: PageKind, title: NonBlank({ maxLength: 255 }) }),
  { kind: 'landing', title: 'Landing page' },
);
export const PageTypeUpdateBody = namedBody(
  'PageTypeUpdateBody',
  Type.Object({ title: Type.Optional(NonBlank({ maxLength: 255 })) }),
  { title: 'Landing' },
);
