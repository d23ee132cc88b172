import { Type } from 'typebox';
import { WEBHOOK_EVENTS } from '../../modules/webhooks/webhooks.js';
import { Id, Int, JsonObject, NonBlank, Nullable, StringEnum, Timestamp, named, namedBody } from './common.js';

const Events = Type.Array(StringEnum(WEBHOOK_EVENTS), {
  minItems: 1,
  maxItems: WEBHOOK_EVENTS.length,
  uniqueItems: true,
  description: `the events to receive: ${WEBHOOK_EVENTS.join(', ')}`,
});
const Url = Type.String({
  format: 'uri',
  maxLength: 2000,
  pattern: '^https?://',
  description:
    'http or https; its host must resolve to a public address (checked when saved and again at each delivery), unless the service runs with PROVIDER_ALLOW_PRIVATE=1. Redirects are not followed',
});
const Description = Nullable(Type.String({ maxLength: 500 }));

const webhookFields = {
  id: Id,
  url: Type.String(),
  description: Nullable(Type.String()),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean({ description: 'false once disabled, by its owner or after failures: nothing is sent' }),
  disabled_reason: Nullable(Type.String({ description: 'why it was disabled (the last failure); null while enabled' })),
  disabled_at: Nullable(Timestamp),
  consecutive_failures: Int({
    minimum: 0,
    description: 'deliveries in a row that failed for good; at WEBHOOK_DISABLE_AFTER the endpoint is disabled',
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
};

const WEBHOOK_EXAMPLE = {
  id: 3,
  url: 'https://hooks.example.com/pageblocks',
  description: 'CDN purge',
  events: ['page.published', 'page.deleted'],
  enabled: true,
  disabled_reason: null,
  disabled_at: null,
  consecutive_failures: 0,
  created_at: '2026-11-27T10:00:00.000Z',
  updated_at: '2026-11-27T10:00:00.000Z',
};

export const WebhookSchema = named('Webhook', Type.Object(webhookFields), { example: WEBHOOK_EXAMPLE, list: true });

export const WebhookCreatedSchema = named(
  'WebhookCreated',
  Type.Object({
    ...webhookFields,
    secret: Type.String({
      description: 'the signing secret (whsec_…), shown in this answer only: keep it to verify the signatures',
    }),
  }),
  { example: { ...WEBHOOK_EXAMPLE, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } },
);

export const WebhookSecretSchema = named(
  'WebhookSecret',
  Type.Object({
    secret: Type.String({ description: 'the new signing secret, shown once; the old one no longer signs' }),
  }),
  { example: { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } },
);

const AttemptSchema = Type.Object({
  attempt: Int({ minimum: 1 }),
  at: Timestamp,
  response_status: Nullable(Int({ description: 'the receiver’s status; null when none came' })),
  duration_ms: Int({ minimum: 0 }),
  error: Nullable(Type.String({ description: 'what went wrong; null when delivered' })),
  response_excerpt: Nullable(Type.String({ description: 'the first KiB of the receiver’s answer' })),
});

export const WebhookDeliverySchema = named(
  'WebhookDelivery',
  Type.Object({
    id: Type.String({ description: 'the message id, sent as webhook-id: the same on every retry and redelivery' }),
    event: Type.String(),
    state: StringEnum(['pending', 'delivered', 'failed'] as const, {
      description: 'pending: waiting for its next try; failed: its last try failed (redeliver sends it again)',
    }),
    attempts: Int({ minimum: 0 }),
    response_status: Nullable(Int()),
    last_error: Nullable(Type.String()),
    payload: JsonObject({ description: 'the body sent: {type, timestamp, data}' }),
    created_at: Timestamp,
    updated_at: Timestamp,
    attempt_log: Type.Array(AttemptSchema, { description: 'each try, oldest first' }),
  }),
  {
    list: true,
    example: {
      id: 'msg_2f1c0b7e9a4d4c55b8d6e3f1a2b3c4d5',
      event: 'page.published',
      state: 'delivered',
      attempts: 2,
      response_status: 200,
      last_error: null,
      payload: {
        type: 'page.published',
        timestamp: '2026-11-27T10:05:00.000Z',
        data: { page_id: 12, site_id: 1, version: 3 },
      },
      created_at: '2026-11-27T10:05:00.000Z',
      updated_at: '2026-11-27T10:05:31.000Z',
      attempt_log: [
        {
          attempt: 1,
          at: '2026-11-27T10:05:00.000Z',
          response_status: 503,
          duration_ms: 41,
          error: 'The receiver answered 503.',
          response_excerpt: 'busy',
        },
        {
          attempt: 2,
          at: '2026-11-27T10:05:31.000Z',
          response_status: 200,
          duration_ms: 18,
          error: null,
          response_excerpt: 'ok',
        },
      ],
    },
  },
);

export const WebhookCreateBody = namedBody(
  'WebhookCreateBody',
  Type.Object({ url: Url, events: Events, description: Type.Optional(Description) }),
  { url: 'https://hooks.example.com/pageblocks', events: ['page.published'], description: 'CDN purge' },
);

export const WebhookUpdateBody = namedBody(
  'WebhookUpdateBody',
  Type.Object({
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Description),
    enabled: Type.Optional(
      Type.Boolean({ description: 'true enables a disabled endpoint again (its failures count from 0)' }),
    ),
  }),
  { enabled: true },
);

export const DeliveryParams = Type.Object({
  id: Id,
  did: NonBlank({ maxLength: 100, description: 'a delivery id (msg_…)' }),
});
