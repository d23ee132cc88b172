import type { App, HttpDeps } from '../context.js';
import { actorOf } from '../context.js';
import { errorResponses, IdParams, NoContent, Paged, PageQuery } from '../schemas/common.js';
import { SubmissionSchema } from '../schemas/submissions.js';

export function submissionRoutes(app: App, { services }: HttpDeps) {
  const tags = ['block submissions'];
  app.post(
    '/blocks/:id/submit',
    {
      schema: {
        tags,
        summary: 'Submit your block to the global catalog',
        description:
          'An administrator approves (a global copy is made; your block stays yours) or rejects it. A second pending submission is a 409.',
        params: IdParams,
        response: { 201: SubmissionSchema, ...errorResponses(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return services.submissions.submit(actorOf(request), request.params.id);
    },
  );
  app.get(
    '/block-submissions',
    {
      schema: {
        tags,
        summary: 'Your submissions',
        querystring: PageQuery,
        response: { 200: Paged(SubmissionSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => services.submissions.list(actorOf(request), request.query),
  );
  app.delete(
    '/block-submissions/:id',
    {
      schema: {
        tags,
        summary: 'Withdraw a pending submission',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await services.submissions.withdraw(actorOf(request), request.params.id);
      reply.status(204);
    },
  );
}
