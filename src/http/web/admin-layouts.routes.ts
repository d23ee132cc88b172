import type { App, HttpDeps } from '../context.js';
import { actorOf } from '../context.js';
import { errorResponses } from '../schemas/common.js';
import { LayoutCreateBody, LayoutSchema } from '../schemas/layouts.js';

export function adminLayoutRoutes(app: App, { services }: HttpDeps) {
  app.post(
    '/admin/layouts',
    {
      schema: {
        tags: ['admin'],
        summary: 'Create a global layout',
        body: LayoutCreateBody,
        response: { 201: LayoutSchema, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return services.layouts.create(actorOf(request), request.body, 'global');
    },
  );
}
