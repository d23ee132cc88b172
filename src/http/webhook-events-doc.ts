/**
 * The webhook events as the OpenAPI document's `webhooks` (OpenAPI 3.1): each
 * event a POST that Pageblocks sends to a subscribed URL, its signed headers,
 * and its body `{type, timestamp, data}` with the fields of `data` for that
 * event. Kept here by hand beside the services that make the events; a test
 * holds every event a receiver gets to its schema (`additionalProperties:
 * false`), so a field added to an event and not here fails it.
 */
import type { WebhookEventType } from '../modules/webhooks/webhooks.js';

type Schema = Record<string, unknown>;

const int = (description?: string): Schema => ({ type: 'integer', ...(description && { description }) });
const text = (description?: string): Schema => ({ type: 'string', ...(description && { description }) });
const orNull = (schema: Schema): Schema => ({ ...schema, type: [schema.type as string, 'null'] });

/** What every page event names: enough to find the page again. */
const PAGE = {
  page_id: int(),
  site_id: orNull(int()),
  name: text(),
  slug: orNull(text()),
  kind: text('the page type: article, landing, …'),
  version: int('the page’s version as the change left it'),
};
const PAGE_EXAMPLE = { page_id: 12, site_id: 1, name: 'Spring sale', slug: 'spring-sale', kind: 'article', version: 7 };

const BLOCK = {
  block_id: int(),
  name: text(),
  scope: { type: 'string', enum: ['user', 'global'] },
};
const REVISED = {
  ...BLOCK,
  version: text('the new revision, "major.minor"'),
  version_bump: { type: 'string', enum: ['major', 'minor'], description: 'major: a field removed or renamed' },
};
const REVISED_EXAMPLE = { block_id: 4, name: 'Hero', scope: 'user', version: '1.3', version_bump: 'minor' };

interface EventDoc {
  summary: string;
  data: Record<string, Schema>;
  /** The fields of `data` that every event of this type carries (else all of them). */
  required?: string[];
  example: Record<string, unknown>;
}

const EVENTS: Record<WebhookEventType | 'webhook.test', EventDoc> = {
  'page.created': { summary: 'A page was created.', data: PAGE, example: PAGE_EXAMPLE },
  'page.updated': {
    summary:
      'A page changed: its PUT, an operation on its blocks, a version restored, an upgrade set or its revert (once per page).',
    data: {
      ...PAGE,
      change: text(
        'absent for a PUT of the page; else the write: blocks.added, block.moved, block.removed, block.values, ' +
          'block.replaced, blocks.upgraded (an upgrade, upgrade-all or migration), version.restored, ' +
          'upgrade_set.applied, upgrade_set.reverted',
      ),
      restored_version: int('with version.restored: the version restored'),
      upgrade_set_id: int('with upgrade_set.*: the set'),
      block_id: int('with upgrade_set.*: the block the set upgraded'),
    },
    required: Object.keys(PAGE),
    example: { ...PAGE_EXAMPLE, change: 'upgrade_set.applied', upgrade_set_id: 9, block_id: 4 },
  },
  'page.deleted': { summary: 'A page was deleted.', data: PAGE, example: PAGE_EXAMPLE },
  'page.published': {
    summary: 'A page was published to its site’s CMS (a publication, or a publish-update: `update`).',
    data: {
      ...PAGE,
      published_version: int('the page version the CMS now shows'),
      external_id: orNull(text('the page’s id at the CMS')),
      external_slug: orNull(text()),
      update: { type: 'boolean' },
      scheduled: { type: 'boolean', description: 'true when a scheduled publication ran it' },
    },
    example: {
      ...PAGE_EXAMPLE,
      published_version: 7,
      external_id: '5521',
      external_slug: 'spring-sale',
      update: false,
      scheduled: false,
    },
  },
  'page.scheduled': {
    summary: 'A page’s publication was scheduled.',
    data: {
      ...PAGE,
      publish_at: { type: 'string', format: 'date-time' },
      mode: { type: 'string', enum: ['publish', 'update'], description: 'update: a published page’s publish-update' },
    },
    example: { ...PAGE_EXAMPLE, publish_at: '2026-11-30T09:00:00.000Z', mode: 'publish' },
  },
  'publication.failed': {
    summary:
      'A publication failed: the CMS refused it now, or a scheduled run failed for good (the CMS, or an author who can no longer publish).',
    data: {
      ...PAGE,
      error: text('why, in words (the CMS’s message)'),
      scheduled: { type: 'boolean' },
      attempts: int('with scheduled: the tries made'),
    },
    required: [...Object.keys(PAGE), 'error', 'scheduled'],
    example: {
      ...PAGE_EXAMPLE,
      error: 'The account that scheduled this publication can no longer publish.',
      scheduled: true,
      attempts: 1,
    },
  },
  'block.revised': {
    summary:
      'A block gained a revision: to its owner and every user with an instance of it (`page.outdated` follows for their pages).',
    data: REVISED,
    example: REVISED_EXAMPLE,
  },
  'block.deprecated': {
    summary: 'A block was deprecated: to its owner and every user with an instance of it.',
    data: BLOCK,
    example: { block_id: 4, name: 'Hero', scope: 'global' },
  },
  'page.outdated': {
    summary: 'One of your pages now pins a revision older than its block’s current one.',
    data: {
      ...PAGE,
      block_id: int(),
      block: { type: 'object', properties: REVISED, required: Object.keys(REVISED), additionalProperties: false },
    },
    example: { ...PAGE_EXAMPLE, block_id: 4, block: REVISED_EXAMPLE },
  },
  'webhook.test': {
    summary: 'Sent by POST /webhooks/{id}/test to that endpoint alone.',
    data: { webhook_id: int(), message: text() },
    example: { webhook_id: 3, message: 'A test event from Pageblocks.' },
  },
};

const HEADERS = [
  ['webhook-id', 'the message id (msg_…), the same on every retry and redelivery: drop a repeat by it'],
  ['webhook-timestamp', 'seconds since the epoch, when this attempt was signed'],
  ['webhook-signature', '`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under the secret’s bytes'],
].map(([name, description]) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } }));

/** `webhooks` of the OpenAPI document: one POST per event type. */
export function webhookEventsDoc(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(EVENTS).map(([type, event]) => [
      type,
      {
        post: {
          tags: ['webhooks'],
          summary: event.summary,
          description:
            'Sent to each of the user’s enabled webhooks subscribed to it, signed the Standard Webhooks way, stored in ' +
            'the transaction of the change that made it (a dry run or a refused change sends none).',
          parameters: HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['type', 'timestamp', 'data'],
                  additionalProperties: false,
                  properties: {
                    type: { const: type },
                    timestamp: { type: 'string', format: 'date-time' },
                    data: {
                      type: 'object',
                      properties: event.data,
                      required: event.required ?? Object.keys(event.data),
                      additionalProperties: false,
                    },
                  },
                },
                example: { type, timestamp: '2026-11-27T10:05:00.000Z', data: event.example },
              },
            },
          },
          responses: {
            '2XX': { description: 'Delivered.' },
            default: {
              description:
                'Not delivered: a 5xx, 408, 429, a time-out or no answer is tried again with backoff; another 4xx is not.',
            },
          },
        },
      },
    ]),
  );
}
