import type { App, HttpDeps } from '../context.js';
import { actorOf } from '../context.js';
import { errorResponses, IdParams, Paged, PageQuery } from '../schemas/common.js';
import { SiteSchema } from '../schemas/sites.js';

export function siteRoutes(app: App, { services }: HttpDeps) {
  app.get(
    '/sites',
    {
      schema: {
        tags: ['sites'],
        summary: 'Sites of the key owner',
        querystring: PageQuery,
        response: { 200: Paged(SiteSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => services.sites.list(actorOf(request), request.query),
  );

  app.get(
    '/sites/:id',
    {
      schema: {
        tags: ['sites'],
        summary: 'One site of the key owner',
        params: IdParams,
        response: { 200: SiteSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => services.sites.get(actorOf(request), request.params.id),
  );
}
