import { Type } from 'typebox';
import { JsonObject, NonBlank, Nullable, Timestamp, Int, named, namedBody } from './common.js';

/** A page's last scheduled publication, as its status shows it. */
const ScheduledRunSchema = named(
  'ScheduledRun',
  Type.Object(
    {
      outcome: Type.String({ enum: ['published', 'failed'] }),
      at: Timestamp,
      attempts: Int({ minimum: 1, description: 'tries it took: a provider’s 5xx or time-out is tried again' }),
      error: Nullable(Type.String({ description: 'the provider’s message (or why it was not sent) when it failed' })),
    },
    { description: 'the outcome of the last scheduled publication that ran; null before any' },
  ),
  { example: { outcome: 'failed', at: '2026-12-07T08:31:02.000Z', attempts: 8, error: 'fourcms answered 503' } },
);

export const PublicationStatusSchema = named(
  'PublicationStatus',
  Type.Object({
    is_published: Type.Boolean(),
    external_id: Nullable(Type.String()),
    external_slug: Nullable(Type.String()),
    published_at: Nullable(Timestamp),
    updated_at: Nullable(Timestamp),
    last_error: Nullable(
      Type.String({
        description: 'the provider’s message from the last failed publish or publish-update; null once one succeeds',
      }),
    ),
    last_error_at: Nullable(Timestamp),
    published_version: Nullable(
      Int({
        minimum: 1,
        description:
          'the latest version of the page that went to the provider (its `version` then); null before the first publication',
      }),
    ),
    has_unpublished_changes: Type.Boolean({
      description:
        'published, and the page has changed since: its `version` is not `published_version` (publish-update sends it). ' +
        'False for a page never published. `GET /pages?has_unpublished_changes=1` lists such pages',
    }),
    scheduled_at: Nullable(
      Type.String({
        format: 'date-time',
        description: 'when the scheduled publication will run (POST /pages/{id}/schedule); null when none is pending',
      }),
    ),
    last_scheduled_run: Nullable(ScheduledRunSchema),
  }),
  {
    example: {
      is_published: true,
      external_id: '1',
      external_slug: 'home',
      published_at: '2026-01-05T10:05:00.000Z',
      updated_at: '2026-01-05T10:05:00.000Z',
      last_error: null,
      last_error_at: null,
      published_version: 3,
      has_unpublished_changes: true,
      scheduled_at: '2026-12-07T08:00:00.000Z',
      last_scheduled_run: null,
    },
  },
);

const metadata = {
  meta_title: Type.Optional(Type.String({ maxLength: 2000 })),
  meta_description: Type.Optional(Type.String({ maxLength: 2000 })),
  slug: Type.Optional(Type.String({ maxLength: 255 })),
  preview_text: Type.Optional(Type.String({ maxLength: 10_000 })),
  name: Type.Optional(NonBlank({ maxLength: 255, description: 'defaults to the page name' })),
};

export const PublishBody = namedBody(
  'PublishBody',
  Type.Object({
    rubric_ids: Type.Optional(
      Type.Array(Int(), {
        description: 'articles: required, at least one id from the provider; other kinds: not sent',
      }),
    ),
    ...metadata,
  }),
  { rubric_ids: [1] },
);

export const ScheduleBody = namedBody(
  'ScheduleBody',
  Type.Object({
    publish_at: Type.String({
      format: 'date-time',
      description: 'when to publish: an ISO 8601 date-time with its offset, in the future',
    }),
    rubric_ids: Type.Optional(
      Type.Array(Int(), {
        description: 'as publish: articles not yet published need at least one id from the provider',
      }),
    ),
    ...metadata,
  }),
  { publish_at: '2026-12-07T09:00:00+01:00', rubric_ids: [1] },
);

const providerFields = {
  type: Nullable(Type.String({ enum: ['fourcms'] })),
  base_url: Nullable(Type.String()),
  token_set: Type.Boolean({ description: 'the token itself is never returned' }),
  updated_at: Nullable(Timestamp),
};

export const ProviderRecordSchema = named('Provider', Type.Object(providerFields), {
  example: {
    type: 'fourcms',
    base_url: 'https://cms.example.com',
    token_set: true,
    updated_at: '2026-01-05T10:00:00.000Z',
  },
});

export const ProviderCheckSchema = named(
  'ProviderCheck',
  Type.Object({
    ok: Type.Boolean({ description: 'the provider answered its connection check (GET {base_url}/me) for this token' }),
    error: Type.Optional(
      Type.String({ description: 'what is wrong: the address did not answer, the token was refused, …' }),
    ),
  }),
  { example: { ok: false, error: 'fourcms answered 401 Unauthorized: invalid token' } },
);

export const ProviderSavedSchema = named(
  'ProviderSaved',
  Type.Object({ ...providerFields, check: ProviderCheckSchema }),
  {
    example: {
      type: 'fourcms',
      base_url: 'https://cms.example.com',
      token_set: true,
      updated_at: '2026-01-05T10:00:00.000Z',
      check: { ok: true },
    },
  },
);

export const FourcmsSettingsBody = namedBody(
  'FourcmsSettingsBody',
  Type.Object({
    base_url: Type.String({
      format: 'uri',
      maxLength: 2000,
      pattern: '^https?://',
      description: 'http or https URL of the fourcms API',
    }),
    token: NonBlank({ maxLength: 4000 }),
  }),
  { base_url: 'https://cms.example.com', token: 'secret-token' },
);

export const BlockPreviewBody = namedBody(
  'BlockPreviewBody',
  Type.Object({
    placeholder_values: Type.Optional(JsonObject()),
    bindings: Type.Optional(JsonObject()),
  }),
  { placeholder_values: { title: 'Welcome' } },
);

export const PagePreviewBody = namedBody(
  'PagePreviewBody',
  Type.Object({
    blocks: Type.Optional(
      Type.Array(
        Type.Object({
          id: Int({ description: 'an instance of this page' }),
          placeholder_values: Type.Optional(JsonObject({ description: 'replaces the saved values; absent: kept' })),
          bindings: Type.Optional(
            Nullable(JsonObject({ description: 'replaces the saved bindings; null clears them; absent: kept' })),
          ),
          parent_page_block_id: Type.Optional(
            Nullable(Int({ description: 'a layout instance listed here, or null for the top level; absent: kept' })),
          ),
        }),
        {
          maxItems: 500,
          description:
            'the instances to show, in this order, on their pinned revisions; instances left out are not shown. Absent: the saved page',
        },
      ),
    ),
  }),
  { blocks: [{ id: 12, placeholder_values: { title: 'Welcome back' } }, { id: 11 }] },
);

export const PagePreviewQuery = Type.Object({
  marks: Type.Optional(
    Int({
      enum: [0, 1],
      description:
        '1: each block’s HTML between `<!--pb-block:ID-->` and `<!--/pb-block:ID-->` (ID: its instance), children inside their parent’s, for an editor that finds blocks on the preview',
    }),
  ),
});

export const HtmlDocument = Type.String({ description: 'text/html' });
