import type { PageRequest } from '../../shared/pagination.js';

/** What a subscription may ask for. `webhook.test` is sent only by the test call, to the one endpoint. */
export const WEBHOOK_EVENTS = [
  'page.created',
  'page.updated',
  'page.deleted',
  'page.published',
  'page.scheduled',
  'publication.failed',
  'block.revised',
  'block.deprecated',
  'page.outdated',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];
export const TEST_EVENT = 'webhook.test';

/**
 * An event, recorded in the transaction of the change that caused it: for one
 * user's subscriptions, or for a block's (its owner and every user with an
 * instance of it; a `block.revised` also makes a `page.outdated` for each page
 * that now pins an older revision of it).
 */
export type WebhookEvent =
  | { userId: number; type: WebhookEventType; data: Record<string, unknown> }
  /** A page's event, the page read as the change left it (its owner, name, version). */
  | { pageId: number; type: 'page.updated' | 'publication.failed'; data: Record<string, unknown> }
  | { blockId: number; type: 'block.revised' | 'block.deprecated'; data: Record<string, unknown> };

/** A page as its events name it. */
export interface PageRef {
  id: number;
  owner_id: number;
  site_id: number | null;
  name: string;
  slug: string | null;
  kind: string;
  version: number;
}

/**
 * Port: a change and the events it causes, stored together or not at all (an
 * outbox). `work` runs in one transaction with the recording of the events
 * `eventsOf` names for its result; a throw, or a dry run around it, stores
 * neither, and nothing is ever sent for a change that was not stored.
 */
export interface Outbox {
  within<T>(work: () => Promise<T>, eventsOf: (result: T) => WebhookEvent[]): Promise<T>;
  /**
   * `within`, for work whose events all go to one user's subscriptions: while
   * that user has no enabled webhook (one indexed read, before the work),
   * `work` runs alone, with no transaction around it and no lookup after it.
   * Nothing is kept between calls: a webhook created a moment before, through
   * any instance, is seen by the next call.
   */
  withinFor<T>(userId: number, work: () => Promise<T>, eventsOf: (result: T) => WebhookEvent[]): Promise<T>;
  /**
   * `work` and, when it moved the page's version, `page.updated` (`data.change`:
   * `change`), in one transaction; `work` alone while the page's owner has no
   * enabled webhook, as `withinFor`.
   */
  pageWrite<T>(pageId: number, change: string, work: () => Promise<T>): Promise<T>;
}

/** An outbox that records nothing (a service built without webhooks: scripts, unit tests). */
export const NO_OUTBOX: Outbox = {
  within: (work) => work(),
  withinFor: (_userId, work) => work(),
  pageWrite: (_pageId, _change, work) => work(),
};

export interface Webhook {
  id: number;
  userId: number;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  /** Why it was disabled (the last failure), null while enabled. */
  disabledReason: string | null;
  disabledAt: string | null;
  /** Deliveries in a row that failed after their last try; a success sets it back to 0. */
  consecutiveFailures: number;
  createdAt: string;
  updatedAt: string;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  /** The Standard Webhooks message id (`webhook-id`), kept across retries and redeliveries. */
  id: string;
  webhookId: number;
  event: string;
  /** The exact body signed and sent. */
  payload: string;
  state: DeliveryState;
  attempts: number;
  responseStatus: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  /** The start of the receiver's answer, bounded (WEBHOOK_RESPONSE_EXCERPT_BYTES). */
  responseExcerpt: string | null;
}

export interface WebhookRepository {
  create(input: {
    userId: number;
    url: string;
    description: string | null;
    events: string[];
    secret: string;
    now: string;
  }): Promise<Webhook>;
  find(id: number): Promise<(Webhook & { secret: string }) | undefined>;
  list(userId: number, page: PageRequest): Promise<{ rows: Webhook[]; total: number }>;
  /** Enabling sets the failures back to 0 and clears the reason. */
  update(
    id: number,
    change: { url?: string; description?: string | null; events?: string[]; enabled?: boolean; secret?: string },
    now: string,
  ): Promise<void>;
  delete(id: number): Promise<void>;
  /** A page as its events name it. */
  page(pageId: number): Promise<PageRef | undefined>;
  /** The block's owner (a private block's) and every user with an instance of it. */
  blockAudience(blockId: number): Promise<number[]>;
  /** The pages with an instance of the block on a revision other than its current one. */
  outdatedPages(blockId: number): Promise<PageRef[]>;
  /** The user's enabled endpoints that subscribe to `type`. */
  subscribed(userId: number, type: string): Promise<number[]>;
  /** Whether the user (`{ userId }`) or the page's owner (`{ pageId }`) has an enabled endpoint. */
  anyEnabled(whose: { userId: number } | { pageId: number }): Promise<boolean>;
  addDelivery(input: { id: string; webhookId: number; event: string; payload: string; now: string }): Promise<void>;
  delivery(id: string): Promise<Delivery | undefined>;
  deliveries(
    webhookId: number,
    page: PageRequest,
  ): Promise<{ rows: (Delivery & { attemptLog: DeliveryAttempt[] })[]; total: number }>;
  /** Logs one attempt and moves the delivery to `state`. */
  recordAttempt(deliveryId: string, attempt: DeliveryAttempt, state: DeliveryState): Promise<void>;
  /** A delivery to be tried again (redeliver): pending, its log kept. */
  reopen(deliveryId: string, now: string): Promise<void>;
  /** After a delivery succeeded: failures back to 0. */
  succeeded(webhookId: number): Promise<void>;
  /**
   * After a delivery failed for good: one more failure; at `disableAfter` in a
   * row the endpoint is disabled with `reason`. Resolves to whether it is now disabled.
   */
  failed(webhookId: number, input: { disableAfter: number; reason: string; now: string }): Promise<boolean>;
}

/** What one HTTP attempt gave. */
export interface SendResult {
  /** The receiver's status; null when none came (time-out, refused, unreachable). */
  status: number | null;
  durationMs: number;
  error: string | null;
  excerpt: string | null;
  /** Worth trying again: a 5xx, 408, 429, a time-out or a network failure. */
  transient: boolean;
}

/** Port: one signed POST to a receiver, through the outbound guard, bounded in time and bytes. */
export type WebhookSender = (request: {
  url: string;
  headers: Record<string, string>;
  body: string;
}) => Promise<SendResult>;

export interface WebhookSettings {
  /** Tries of a delivery after the first (WEBHOOK_RETRY_LIMIT). */
  retryLimit: number;
  /** Deliveries in a row that fail for good before the endpoint is disabled (WEBHOOK_DISABLE_AFTER). */
  disableAfter: number;
}
