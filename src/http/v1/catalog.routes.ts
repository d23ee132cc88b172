import type { App, HttpDeps } from '../context.js';
import {
  CatalogIdParams,
  DataResultTypeSchema,
  DataSourceSchema,
  PageTypeSchema,
  TagSchema,
} from '../schemas/catalog.js';
import { errorResponses, Paged, PageQuery } from '../schemas/common.js';

/** The data catalog and the navigation lists: read-only here, changed by administrators under /api/admin. */
export function catalogRoutes(app: App, { services }: HttpDeps) {
  app.get(
    '/data-sources',
    {
      schema: {
        tags: ['data'],
        summary: 'Data sources a binding may name',
        querystring: PageQuery,
        response: { 200: Paged(DataSourceSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => services.dataSources.listSources(request.query),
  );

  app.get(
    '/data-sources/:id',
    {
      schema: {
        tags: ['data'],
        summary: 'One data source: its params_schema and result_type_id',
        description:
          'The keys of a binding’s `params` are exactly those of `params_schema.properties`. The data’s shape is `GET /data-result-types/{result_type_id}`.',
        params: CatalogIdParams,
        response: { 200: DataSourceSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => services.dataSources.getSource(request.params.id),
  );

  app.get(
    '/data-result-types',
    {
      schema: {
        tags: ['data'],
        summary: 'Shapes of the data that sources return',
        querystring: PageQuery,
        response: { 200: Paged(DataResultTypeSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => services.dataSources.listResultTypes(request.query),
  );

  app.get(
    '/data-result-types/:id',
    {
      schema: {
        tags: ['data'],
        summary: 'One result type: schema_json and the stub shown in previews',
        params: CatalogIdParams,
        response: { 200: DataResultTypeSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => services.dataSources.getResultType(request.params.id),
  );

  app.get(
    '/page-types',
    {
      schema: {
        tags: ['navigation'],
        summary: 'Allowed values of a page’s kind',
        querystring: PageQuery,
        response: { 200: Paged(PageTypeSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => services.pageTypes.list(request.query),
  );

  app.get(
    '/tags',
    {
      schema: {
        tags: ['navigation'],
        summary: 'Block tags',
        querystring: PageQuery,
        response: { 200: Paged(TagSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => services.tags.list(request.query),
  );

  app.get(
    '/layout-tags',
    {
      schema: {
        tags: ['navigation'],
        summary: 'Layout tags',
        querystring: PageQuery,
        response: { 200: Paged(TagSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => services.layoutTags.list(request.query),
  );
}
