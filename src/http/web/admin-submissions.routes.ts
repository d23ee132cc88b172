import type { App, HttpDeps } from '../context.js';
import { actorOf } from '../context.js';
import { sendPreview } from '../preview-reply.js';
import { presentRevision } from '../presenters/blocks.presenter.js';
import { errorResponses, IdParams, Paged } from '../schemas/common.js';
import { HtmlDocument } from '../schemas/publishing.js';
import {
  AdminSubmissionSchema,
  RejectBody,
  SubmissionAdminQuery,
  SubmissionReviewSchema,
  SubmissionSchema,
} from '../schemas/submissions.js';

export function adminSubmissionRoutes(app: App, { services }: HttpDeps) {
  const tags = ['admin'];
  app.get(
    '/admin/block-submissions',
    {
      schema: {
        tags,
        summary: 'All submissions, newest first, each with its author and whether the block changed since',
        querystring: SubmissionAdminQuery,
        response: { 200: Paged(AdminSubmissionSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => services.submissions.listAll(actorOf(request), request.query),
  );
  app.get(
    '/admin/block-submissions/:id',
    {
      schema: {
        tags,
        summary: 'One submission as submitted: template, CSS, JS and fields of the revision the approval copies',
        description:
          '`revision` and `block` are what the author submitted, kept with the submission: the approval copies ' +
          'exactly these, whatever the author changed since. `changed_since_submitted` says whether the block ' +
          'differs now; `current_version` is its version now. `revision` is null only on submissions decided ' +
          'before submissions kept their revision.',
        params: IdParams,
        response: { 200: SubmissionReviewSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const review = await services.submissions.review(actorOf(request), request.params.id);
      return { ...review, revision: review.revision && presentRevision(review.revision) };
    },
  );
  app.get(
    '/admin/block-submissions/:id/preview',
    {
      schema: {
        tags,
        summary: 'The submitted revision rendered as HTML with its example values (stub data in bound slots)',
        description:
          'Served like every preview: `Content-Security-Policy: sandbox allow-scripts`, so the block’s JS runs ' +
          'in an opaque origin, away from the session. Show it in an iframe with `sandbox="allow-scripts"`. ' +
          'It takes its turn on the shared render threads like every preview (429 with Retry-After past your share).',
        params: IdParams,
        response: { 200: HtmlDocument, ...errorResponses(400, 401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) =>
      sendPreview(reply, await services.submissions.preview(actorOf(request), request.params.id)),
  );
  app.post(
    '/admin/block-submissions/:id/approve',
    {
      schema: {
        tags,
        summary: 'Approve: a global copy of the block as submitted is made, in one transaction',
        description:
          'The copy is the revision submitted (as version 1.0) with the name, description, docs and type ' +
          'submitted, never the block as the author changed it since.',
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
