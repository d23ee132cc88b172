import { IdParams, PageQuery } from '../http/schemas/common.js';
import { DeliveryParams, WebhookCreateBody, WebhookUpdateBody } from '../http/schemas/webhooks.js';
import type { ToolRoute } from './tool-route.js';

/** The tools that tell a URL of changes (webhooks): subscribe, change, remove, test, and read what was sent. */
export const WEBHOOK_TOOLS: readonly ToolRoute[] = [
  {
    name: 'list_webhooks',
    description:
      'Your webhooks: each URL with the events it receives, and whether it is enabled (a disabled one says why in ' +
      '`disabled_reason`; update_webhook with `enabled: true` enables it again). Never their secrets.',
    method: 'GET',
    path: '/webhooks',
    query: PageQuery,
  },
  {
    name: 'get_webhook',
    description: 'One webhook: its URL, events, description, and whether it is enabled (never its secret).',
    method: 'GET',
    path: '/webhooks/:id',
    params: IdParams,
  },
  {
    name: 'create_webhook',
    description:
      'Have a URL told of changes instead of polling: `url` (http or https, a public address) and `events` (e.g. ' +
      '`page.published`, `page.updated`). Each delivery is a signed POST (Standard Webhooks). The answer’s ' +
      '`secret` (whsec_…) is shown this once: give it to the receiver, which verifies the signatures with it. Then ' +
      'test_webhook.',
    method: 'POST',
    path: '/webhooks',
    body: WebhookCreateBody,
  },
  {
    name: 'update_webhook',
    description:
      'Change a webhook’s `url`, `events` or `description`, or enable (`enabled: true`, its failures count from 0) ' +
      'or disable it (`enabled: false`: nothing is sent to it). Only the arguments given change.',
    method: 'PUT',
    path: '/webhooks/:id',
    params: IdParams,
    body: WebhookUpdateBody,
  },
  {
    name: 'delete_webhook',
    description: 'Delete a webhook and its delivery log: nothing more is sent to its URL.',
    method: 'DELETE',
    path: '/webhooks/:id',
    params: IdParams,
  },
  {
    name: 'rotate_webhook_secret',
    description:
      'A new signing secret for a webhook, shown this once (when the old one may have leaked): it signs every ' +
      'delivery from now on, the old one none.',
    method: 'POST',
    path: '/webhooks/:id/secret',
    params: IdParams,
  },
  {
    name: 'test_webhook',
    description:
      'Send a `webhook.test` event to this webhook (enabled or not), to check that its receiver gets and verifies ' +
      'it. The answer is the delivery, pending; list_webhook_deliveries shows how it went.',
    method: 'POST',
    path: '/webhooks/:id/test',
    params: IdParams,
  },
  {
    name: 'list_webhook_deliveries',
    description:
      'What was sent to a webhook, newest first: each delivery’s event, `state` (pending, delivered, failed), body, ' +
      'and every attempt (status, error, time, duration, the start of the receiver’s answer).',
    method: 'GET',
    path: '/webhooks/:id/deliveries',
    params: IdParams,
    query: PageQuery,
  },
  {
    name: 'redeliver_webhook_delivery',
    description:
      'Send a delivery again once its receiver is fixed (`did`, its id from list_webhook_deliveries): the same ' +
      'message id and body, signed anew. A delivery still pending is refused (409): it is tried again on its own.',
    method: 'POST',
    path: '/webhooks/:id/deliveries/:did/redeliver',
    params: DeliveryParams,
  },
];
