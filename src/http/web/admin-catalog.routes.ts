import type { App, HttpDeps } from '../context.js';
import { actorOf } from '../context.js';
import {
  CatalogIdParams,
  DataResultTypeCreateBody,
  DataResultTypeSchema,
  DataResultTypeUpdateBody,
  DataSourceCreateBody,
  DataSourceSchema,
  DataSourceUpdateBody,
  PageKindParams,
  PageTypeCreateBody,
  PageTypeSchema,
  PageTypeUpdateBody,
  TagCreateBody,
  TagSchema,
  TagUpdateBody,
} from '../schemas/catalog.js';
import { errorResponses, IdParams, NoContent, Paged, PageQuery } from '../schemas/common.js';
import type { TagsService } from '../../modules/catalog/tags.service.js';

const tags = ['admin'];

/** Administration of the catalog: tags, layout tags, page types, data result types and data sources. */
export function adminCatalogRoutes(app: App, deps: HttpDeps) {
  tagRoutes(app, '/admin/tags', 'tag', deps.services.tags);
  tagRoutes(app, '/admin/layout-tags', 'layout tag', deps.services.layoutTags);
  pageTypeRoutes(app, deps);
  resultTypeRoutes(app, deps);
  sourceRoutes(app, deps);
}

function tagRoutes(app: App, base: string, noun: string, service: TagsService) {
  app.get(
    base,
    {
      schema: {
        tags,
        summary: `List ${noun}s`,
        querystring: PageQuery,
        response: { 200: Paged(TagSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => service.list(request.query),
  );
  app.post(
    base,
    {
      schema: {
        tags,
        summary: `Create a ${noun}`,
        description: 'Without `slug`, one is made from the name. A taken slug is a 409 at `slug`.',
        body: TagCreateBody,
        response: { 201: TagSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return service.create(actorOf(request), request.body);
    },
  );
  app.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: `Rename a ${noun} or change its slug`,
        params: IdParams,
        body: TagUpdateBody,
        response: { 200: TagSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => service.update(actorOf(request), request.params.id, request.body),
  );
  app.delete(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: `Delete a ${noun}`,
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.delete(actorOf(request), request.params.id);
      reply.status(204);
    },
  );
}

function pageTypeRoutes(app: App, { services }: HttpDeps) {
  app.get(
    '/admin/page-types',
    {
      schema: {
        tags,
        summary: 'List page types',
        querystring: PageQuery,
        response: { 200: Paged(PageTypeSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => services.pageTypes.list(request.query),
  );
  app.post(
    '/admin/page-types',
    {
      schema: {
        tags,
        summary: 'Add a page type',
        body: PageTypeCreateBody,
        response: { 201: PageTypeSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return services.pageTypes.create(actorOf(request), request.body);
    },
  );
  app.put(
    '/admin/page-types/:kind',
    {
      schema: {
        tags,
        summary: 'Change a page type’s title',
        params: PageKindParams,
        body: PageTypeUpdateBody,
        response: { 200: PageTypeSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => services.pageTypes.update(actorOf(request), request.params.kind, request.body),
  );
  app.delete(
    '/admin/page-types/:kind',
    {
      schema: {
        tags,
        summary: 'Delete a page type',
        description: 'Built-in types (article, template, layout) and types that pages use are a 409.',
        params: PageKindParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await services.pageTypes.delete(actorOf(request), request.params.kind);
      reply.status(204);
    },
  );
}

function resultTypeRoutes(app: App, { services }: HttpDeps) {
  const catalog = services.dataSources;
  app.get(
    '/admin/data-result-types',
    {
      schema: {
        tags,
        summary: 'List data result types',
        querystring: PageQuery,
        response: { 200: Paged(DataResultTypeSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => catalog.listResultTypes(request.query),
  );
  app.post(
    '/admin/data-result-types',
    {
      schema: {
        tags,
        summary: 'Create a data result type',
        description:
          '`schema_json` must be a draft-07 JSON Schema and `stub` must be valid against it, else 422 with `errors[]`. A taken id is a 409.',
        body: DataResultTypeCreateBody,
        response: { 201: DataResultTypeSchema, ...errorResponses(400, 401, 403, 409, 422) },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return catalog.createResultType(actorOf(request), request.body);
    },
  );
  app.put(
    '/admin/data-result-types/:id',
    {
      schema: {
        tags,
        summary: 'Change a data result type',
        description: 'A new `schema_json` must accept the stub (the stored one when no `stub` is sent), else 422.',
        params: CatalogIdParams,
        body: DataResultTypeUpdateBody,
        response: { 200: DataResultTypeSchema, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => catalog.updateResultType(actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/admin/data-result-types/:id',
    {
      schema: {
        tags,
        summary: 'Delete a data result type',
        description: 'A type that a data source returns is a 409.',
        params: CatalogIdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await catalog.deleteResultType(actorOf(request), request.params.id);
      reply.status(204);
    },
  );
}

function sourceRoutes(app: App, { services }: HttpDeps) {
  const catalog = services.dataSources;
  app.get(
    '/admin/data-sources',
    {
      schema: {
        tags,
        summary: 'List data sources',
        querystring: PageQuery,
        response: { 200: Paged(DataSourceSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => catalog.listSources(request.query),
  );
  app.post(
    '/admin/data-sources',
    {
      schema: {
        tags,
        summary: 'Create a data source',
        description:
          '`params_schema` must be a draft-07 JSON Schema of an object with `properties` and `additionalProperties: ' +
          'false`, else 422. An unknown `result_type_id` is a 422, a taken id a 409.',
        body: DataSourceCreateBody,
        response: { 201: DataSourceSchema, ...errorResponses(400, 401, 403, 409, 422) },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return catalog.createSource(actorOf(request), request.body);
    },
  );
  app.put(
    '/admin/data-sources/:id',
    {
      schema: {
        tags,
        summary: 'Change a data source',
        params: CatalogIdParams,
        body: DataSourceUpdateBody,
        response: { 200: DataSourceSchema, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => catalog.updateSource(actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/admin/data-sources/:id',
    {
      schema: {
        tags,
        summary: 'Delete a data source',
        description: 'A source that a block’s binding slot names (in any revision) is a 409.',
        params: CatalogIdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await catalog.deleteSource(actorOf(request), request.params.id);
      reply.status(204);
    },
  );
}
