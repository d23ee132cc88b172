import type { App, HttpDeps } from '../context.js';
import { actorOf } from '../context.js';
import { Type } from 'typebox';
import { AdminUserSchema, UserEnvelope, UserIdParams, UserUpdateBody } from '../schemas/auth.js';
import { errorResponses, Paged, PageQueryProperties } from '../schemas/common.js';

const UserListQuery = Type.Object({
  ...PageQueryProperties,
  email: Type.Optional(Type.String({ maxLength: 254, description: 'only accounts whose email contains this text' })),
});

export function adminUserRoutes(app: App, { services }: HttpDeps) {
  app.get(
    '/admin/users',
    {
      schema: {
        tags: ['admin'],
        summary: 'Accounts, oldest first; `email` narrows to those whose email contains it',
        querystring: UserListQuery,
        response: { 200: Paged(AdminUserSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => services.users.list(actorOf(request), request.query),
  );
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
