import type { App, HttpDeps } from '../context.js';
import { actorOf } from '../context.js';
import { CollectionCreateBody, CollectionSchema } from '../schemas/collections.js';
import { errorResponses } from '../schemas/common.js';

export function adminCollectionRoutes(app: App, { services }: HttpDeps) {
  app.post(
    '/admin/collections',
    {
      schema: {
        tags: ['admin'],
        summary: 'Create a global collection',
        body: CollectionCreateBody,
        response: { 201: CollectionSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return services.collections.create(actorOf(request), request.body.name, 'global');
    },
  );
}
