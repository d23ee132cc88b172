import type { App, HttpDeps } from '../context.js';
import { actorOf } from '../context.js';
import { errorResponses, IdParams, Paged } from '../schemas/common.js';
import { RejectBody, SubmissionAdminQuery, SubmissionSchema } from '../schemas/submissions.js';

export function adminSubmissionRoutes(app: App, { services }: HttpDeps) {
  const tags = ['admin'];
  app.get(
    '/admin/block-submissions',
    {
      schema: {
        tags,
        summary: 'All submissions, newest first',
        querystring: SubmissionAdminQuery,
        response: { 200: Paged(SubmissionSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => services.submissions.listAll(actorOf(request), request.query),
  );
  app.post(
    '/admin/block-submissions/:id/approve',
    {
      schema: {
        tags,
        summary: 'Approve: a global copy of the block is made, in one transaction',
        params: IdParams,
        response: { 200: SubmissionSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => services.submissions.approve(actorOf(request), request.params.id),
  );
  app.post(
    '/admin/block-submissions/:id/reject',
    {
      schema: {
        tags,
        summary: 'Reject with a reason',
        params: IdParams,
        body: RejectBody,
        response: { 200: SubmissionSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => services.submissions.reject(actorOf(request), request.params.id, request.body.reason),
  );
}
