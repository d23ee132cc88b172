import type { App, HttpDeps } from '../context.js';
import { actorOf } from '../context.js';
import { clientGone, sendPreview } from '../preview-reply.js';
import { errorResponses, IdParams, NoContent } from '../schemas/common.js';
import {
  BlockPreviewBody,
  FourcmsSettingsBody,
  HtmlDocument,
  PagePreviewBody,
  PagePreviewQuery,
  ProviderCheckSchema,
  ProviderRecordSchema,
  ProviderSavedSchema,
  PublicationStatusSchema,
  PublishBody,
  ScheduleBody,
} from '../schemas/publishing.js';

/** What every preview route says of the shared renderer. */
const RENDER_SHARE =
  'Renders share the service’s render threads fairly between users: 429 with Retry-After (seconds) when your own ' +
  'previews already hold your share and wait for it; wait that long and send again. Publications are never refused so.';

export function publishingRoutes(app: App, { services }: HttpDeps) {
  const publishing = services.publishing;

  app.get(
    '/pages/:id/publication',
    {
      schema: {
        tags: ['publication'],
        summary: 'Publication status (local: the provider is not called)',
        params: IdParams,
        response: { 200: PublicationStatusSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => publishing.status(actorOf(request), request.params.id),
  );
  app.post(
    '/pages/:id/publish',
    {
      schema: {
        tags: ['publication'],
        summary: 'First publication to the site’s CMS provider',
        description:
          'Articles: rubric_ids required (at least one). Other kinds: {}. 400: already published, or no site; 502: the ' +
          'provider failed (its message is in error). Any failure leaves the state unchanged.',
        params: IdParams,
        body: PublishBody,
        response: { 200: PublicationStatusSchema, ...errorResponses(400, 401, 403, 404, 409, 502) },
      },
    },
    async (request) => publishing.publish(actorOf(request), request.params.id, request.body),
  );
  app.post(
    '/pages/:id/publish-update',
    {
      schema: {
        tags: ['publication'],
        summary: 'Regenerate the published HTML, CSS and JS; metadata changes only when sent',
        params: IdParams,
        body: PublishBody,
        response: { 200: PublicationStatusSchema, ...errorResponses(400, 401, 403, 404, 409, 502) },
      },
    },
    async (request) => publishing.publishUpdate(actorOf(request), request.params.id, request.body),
  );

  app.post(
    '/pages/:id/schedule',
    {
      schema: {
        tags: ['publication'],
        summary: 'Publish the page at a time: publish, or publish-update once it is published',
        description:
          'The body is publish’s with publish_at (in the future: 400 at publish_at otherwise), checked now as publish ' +
          'or publish-update would check it. It runs once, on one instance, after restarts; a provider’s 5xx or ' +
          'time-out is tried again with backoff, a 4xx is not. The status shows scheduled_at, then last_scheduled_run. ' +
          'A new schedule replaces the pending one.',
        params: IdParams,
        body: ScheduleBody,
        response: { 200: PublicationStatusSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => services.schedules.schedule(actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/pages/:id/schedule',
    {
      schema: {
        tags: ['publication'],
        summary: 'Cancel the page’s scheduled publication (409 when none is pending)',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await services.schedules.unschedule(actorOf(request), request.params.id);
      reply.status(204);
    },
  );

  app.get(
    '/pages/:id/preview',
    {
      schema: {
        tags: ['preview'],
        summary: 'The page as HTML, with stub data in bound slots (never calls the provider)',
        description: RENDER_SHARE,
        params: IdParams,
        response: { 200: HtmlDocument, ...errorResponses(400, 401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) =>
      sendPreview(
        reply,
        await services.rendering.previewPage(actorOf(request), request.params.id, {}, clientGone(reply)),
      ),
  );
  app.post(
    '/pages/:id/preview',
    {
      schema: {
        tags: ['preview'],
        summary:
          'The page with unsaved changes (values, bindings, order, nesting) as HTML, with stub data; nothing is saved',
        description:
          'Each change is checked as the write that would save it (errors at blocks[i]…); the render has the budget of every page render (422 at blocks[i]). ' +
          RENDER_SHARE,
        params: IdParams,
        querystring: PagePreviewQuery,
        body: PagePreviewBody,
        response: { 200: HtmlDocument, ...errorResponses(400, 401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) =>
      sendPreview(
        reply,
        await services.rendering.previewPage(actorOf(request), request.params.id, request.body, clientGone(reply), {
          marks: request.query.marks === 1,
        }),
      ),
  );
  app.post(
    '/blocks/:id/preview',
    {
      schema: {
        tags: ['preview'],
        summary: 'One block rendered with the values given (checked like an instance on a page)',
        description: RENDER_SHARE,
        params: IdParams,
        body: BlockPreviewBody,
        response: { 200: HtmlDocument, ...errorResponses(400, 401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) =>
      sendPreview(reply, await services.rendering.previewBlock(actorOf(request), request.params.id, request.body)),
  );

  app.get(
    '/sites/:id/provider',
    {
      schema: {
        tags: ['sites'],
        summary: 'The site’s CMS provider (the token is never returned)',
        params: IdParams,
        response: { 200: ProviderRecordSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => publishing.providerRecord(actorOf(request), request.params.id),
  );
  app.put(
    '/sites/:id/provider/fourcms',
    {
      schema: {
        tags: ['sites'],
        summary: 'Use fourcms as the site’s CMS provider',
        description:
          'base_url must resolve to a public address (private, loopback and link-local ones are refused). The ' +
          'settings are stored, then checked against the provider (GET {base_url}/me): `check` says whether it ' +
          'accepted them. A failed check never refuses the settings.',
        params: IdParams,
        body: FourcmsSettingsBody,
        response: { 200: ProviderSavedSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => publishing.setFourcms(actorOf(request), request.params.id, request.body),
  );
  app.post(
    '/sites/:id/provider/check',
    {
      schema: {
        tags: ['sites'],
        summary: 'Check the stored provider settings against the provider',
        description:
          'Calls the provider’s connection check (GET {base_url}/me) with the stored token. 200 either way: ' +
          '`ok` says whether it answered, `error` what is wrong (no provider set, the address did not answer, ' +
          'the token was refused, …).',
        params: IdParams,
        response: { 200: ProviderCheckSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => publishing.checkProvider(actorOf(request), request.params.id),
  );
}
