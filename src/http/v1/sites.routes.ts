import type { App, HttpDeps } from '../context.js';
import { actorOf } from '../context.js';
import { errorResponses, IdParams, NoContent, Paged, PageQuery } from '../schemas/common.js';
import { SiteCreateBody, SiteSchema, SiteUpdateBody } from '../schemas/sites.js';

/** Sites on both contours: an integration holding only a key sets up a site end to end. */
export function siteRoutes(app: App, { services }: HttpDeps) {
  const tags = ['sites'];
  app.get(
    '/sites',
    {
      schema: {
        tags,
        summary: 'Your sites',
        querystring: PageQuery,
        response: { 200: Paged(SiteSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => services.sites.list(actorOf(request), request.query),
  );
  app.post(
    '/sites',
    {
      schema: {
        tags,
        summary: 'Create a site',
        body: SiteCreateBody,
        response: { 201: SiteSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return services.sites.create(actorOf(request), request.body);
    },
  );
  app.get(
    '/sites/:id',
    {
      schema: {
        tags,
        summary: 'One site',
        params: IdParams,
        response: { 200: SiteSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => services.sites.get(actorOf(request), request.params.id),
  );
  app.put(
    '/sites/:id',
    {
      schema: {
        tags,
        summary: 'Change a site',
        params: IdParams,
        body: SiteUpdateBody,
        response: { 200: SiteSchema, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => services.sites.update(actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/sites/:id',
    {
      schema: {
        tags,
        summary: 'Delete a site',
        description: 'Its pages stay, without a site, until `PUT /api/v1/pages/{id}` gives them another.',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await services.sites.delete(actorOf(request), request.params.id);
      reply.status(204);
    },
  );
}
