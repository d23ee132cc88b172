import type { Delivery, DeliveryAttempt, Webhook } from '../../modules/webhooks/webhooks.js';
import type { App, HttpDeps } from '../context.js';
import { actorOf } from '../context.js';
import { errorResponses, IdParams, NoContent, Paged, PageQuery } from '../schemas/common.js';
import {
  DeliveryParams,
  WebhookCreateBody,
  WebhookCreatedSchema,
  WebhookDeliverySchema,
  WebhookSchema,
  WebhookSecretSchema,
  WebhookUpdateBody,
} from '../schemas/webhooks.js';

const present = (hook: Webhook) => ({
  id: hook.id,
  url: hook.url,
  description: hook.description,
  events: hook.events,
  enabled: hook.enabled,
  disabled_reason: hook.disabledReason,
  disabled_at: hook.disabledAt,
  consecutive_failures: hook.consecutiveFailures,
  created_at: hook.createdAt,
  updated_at: hook.updatedAt,
});

const presentDelivery = (delivery: Delivery & { attemptLog?: DeliveryAttempt[] }) => ({
  id: delivery.id,
  event: delivery.event,
  state: delivery.state,
  attempts: delivery.attempts,
  response_status: delivery.responseStatus,
  last_error: delivery.lastError,
  payload: JSON.parse(delivery.payload) as Record<string, unknown>,
  created_at: delivery.createdAt,
  updated_at: delivery.updatedAt,
  attempt_log: (delivery.attemptLog ?? []).map((a) => ({
    attempt: a.attempt,
    at: a.at,
    response_status: a.responseStatus,
    duration_ms: a.durationMs,
    error: a.error,
    response_excerpt: a.responseExcerpt,
  })),
});

const SIGNED =
  'Each delivery is a POST of {type, timestamp, data} signed as Standard Webhooks: webhook-id, webhook-timestamp ' +
  'and webhook-signature (v1,<base64 HMAC-SHA256 of id.timestamp.body> under the whsec_ secret). A 2xx is delivered; ' +
  'a 5xx, 408, 429, a time-out or a network failure is tried again with backoff, another 4xx is not.';

export function webhookRoutes(app: App, { services }: HttpDeps) {
  const tags = ['webhooks'];
  const webhooks = services.webhooks;
  app.get(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'Your webhooks',
        querystring: PageQuery,
        response: { 200: Paged(WebhookSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const page = await webhooks.list(actorOf(request), request.query);
      return { ...page, data: page.data.map(present) };
    },
  );
  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'Subscribe a URL to events; the answer shows the signing secret, once',
        description: SIGNED,
        body: WebhookCreateBody,
        response: { 201: WebhookCreatedSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const created = await webhooks.create(actorOf(request), request.body);
      reply.status(201);
      return { ...present(created), secret: created.secret };
    },
  );
  app.get(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'One webhook (never its secret)',
        params: IdParams,
        response: { 200: WebhookSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => present(await webhooks.get(actorOf(request), request.params.id)),
  );
  app.put(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Change a webhook’s URL, events or description, or enable it again',
        params: IdParams,
        body: WebhookUpdateBody,
        response: { 200: WebhookSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => present(await webhooks.update(actorOf(request), request.params.id, request.body)),
  );
  app.delete(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Delete a webhook and its delivery log; nothing more is sent to it',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await webhooks.delete(actorOf(request), request.params.id);
      reply.status(204);
    },
  );
  app.post(
    '/webhooks/:id/secret',
    {
      schema: {
        tags,
        summary: 'Rotate the signing secret: the new one signs from now on and is shown once',
        params: IdParams,
        response: { 200: WebhookSecretSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => webhooks.rotateSecret(actorOf(request), request.params.id),
  );
  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        summary: 'The delivery log, newest first: each delivery with its attempts',
        params: IdParams,
        querystring: PageQuery,
        response: { 200: Paged(WebhookDeliverySchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const page = await webhooks.deliveries(actorOf(request), request.params.id, request.query);
      return { ...page, data: page.data.map(presentDelivery) };
    },
  );
  app.post(
    '/webhooks/:id/deliveries/:did/redeliver',
    {
      schema: {
        tags,
        summary: 'Send a delivery again: the same message id and body, signed anew (409 while it is still pending)',
        params: DeliveryParams,
        response: { 202: WebhookDeliverySchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const delivery = await webhooks.redeliver(actorOf(request), request.params.id, request.params.did);
      reply.status(202);
      return presentDelivery(delivery);
    },
  );
  app.post(
    '/webhooks/:id/test',
    {
      schema: {
        tags,
        summary: 'Send a webhook.test event to this endpoint (enabled or not); its log shows how it went',
        params: IdParams,
        response: { 202: WebhookDeliverySchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const delivery = await webhooks.test(actorOf(request), request.params.id);
      reply.status(202);
      return presentDelivery(delivery);
    },
  );
}
