import type { App, HttpDeps } from '../context.js';
import { actorOf } from '../context.js';
import { ApiKeyCreateBody, ApiKeyList, CreatedApiKeySchema } from '../schemas/auth.js';
import { errorResponses, IdParams, NoContent, PageQuery } from '../schemas/common.js';

export function apiKeyRoutes(app: App, { services }: HttpDeps) {
  app.get(
    '/api-keys',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'Your API keys (prefixes only)',
        querystring: PageQuery,
        response: { 200: ApiKeyList, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => services.apiKeys.list(actorOf(request), request.query),
  );

  app.post(
    '/api-keys',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'Create an API key',
        description: 'The response carries `key` once; only its SHA-256 is stored, so it cannot be shown again.',
        body: ApiKeyCreateBody,
        response: { 201: CreatedApiKeySchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return services.apiKeys.create(actorOf(request), request.body.title);
    },
  );

  app.delete(
    '/api-keys/:id',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'Delete an API key; the next request with it gets 401',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await services.apiKeys.delete(actorOf(request), request.params.id);
      reply.status(204);
    },
  );
}
