import type { App, HttpDeps } from '../context.js';
import { actorOf } from '../context.js';
import { UserEnvelope, UserIdParams, UserUpdateBody } from '../schemas/auth.js';
import { errorResponses } from '../schemas/common.js';

export function adminUserRoutes(app: App, { services }: HttpDeps) {
  app.put(
    '/admin/users/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Block or unblock an account, grant or take administrator rights',
        params: UserIdParams,
        body: UserUpdateBody,
        response: { 200: UserEnvelope, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({ user: await services.users.update(actorOf(request), request.params.id, request.body) }),
  );
}
