import { randomUUID } from 'node:crypto';
import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import { conflict, notFound } from '../../shared/errors.js';
import { pageOf, type Page, type PageRequest } from '../../shared/pagination.js';
import type { Job, JobQueue } from '../jobs/jobs.js';
import { pageEvent } from './events.js';
import { newSigningKey, secretOf, signedHeaders } from './signing.js';
import {
  TEST_EVENT,
  type Delivery,
  type DeliveryAttempt,
  type Outbox,
  type Webhook,
  type WebhookEvent,
  type WebhookRepository,
  type WebhookSender,
  type WebhookSettings,
} from './webhooks.js';

/** The job that makes one attempt at a delivery: `{ deliveryId }`. */
export const DELIVER_JOB = 'webhook.deliver';

export interface WebhookInput {
  url: string;
  events: string[];
  description?: string | null;
}

export interface WebhookChange {
  url?: string;
  events?: string[];
  description?: string | null;
  /** true re-enables a disabled endpoint (its failures count from 0 again). */
  enabled?: boolean;
}

/**
 * A user's webhooks: subscriptions, the outbox that records events with the
 * change that causes them, and the delivery of each: signed (Standard
 * Webhooks), through the outbound guard, tried again with the queue's backoff
 * on a 5xx, 408, 429, a time-out or a network failure (never on another 4xx),
 * logged attempt by attempt. An endpoint whose deliveries keep failing for
 * good is disabled, with the reason, until its owner enables it again.
 */
export class WebhooksService implements Outbox {
  constructor(
    private readonly deps: {
      rows: WebhookRepository;
      jobs: Pick<JobQueue, 'send'>;
      /** One transaction around its work (`Database.transact`). */
      transact: <T>(work: () => Promise<T>) => Promise<T>;
      send: WebhookSender;
      /** Throws a 400 at `url` for an address the outbound guard refuses. */
      checkUrl: (url: string) => Promise<void>;
      settings: WebhookSettings;
      clock: Clock;
    },
  ) {}

  async list(actor: Actor, page: PageRequest): Promise<Page<Webhook>> {
    const { rows, total } = await this.deps.rows.list(actor.userId, page);
    return pageOf(rows, total, page);
  }

  async get(actor: Actor, id: number): Promise<Webhook> {
    const { secret: _secret, ...hook } = await this.own(actor, id);
    return hook;
  }

  /** The secret (`whsec_…`) is in this answer and never again. */
  async create(actor: Actor, input: WebhookInput): Promise<Webhook & { secret: string }> {
    await this.deps.checkUrl(input.url);
    const key = newSigningKey();
    const hook = await this.deps.rows.create({
      userId: actor.userId,
      url: input.url,
      description: input.description ?? null,
      events: unique(input.events),
      secret: key,
      now: this.now(),
    });
    return { ...hook, secret: secretOf(key) };
  }

  async update(actor: Actor, id: number, change: WebhookChange): Promise<Webhook> {
    await this.own(actor, id);
    if (change.url !== undefined) await this.deps.checkUrl(change.url);
    await this.deps.rows.update(
      id,
      {
        ...(change.url !== undefined && { url: change.url }),
        ...(change.events !== undefined && { events: unique(change.events) }),
        ...(change.description !== undefined && { description: change.description }),
        ...(change.enabled !== undefined && { enabled: change.enabled }),
      },
      this.now(),
    );
    return this.get(actor, id);
  }

  async delete(actor: Actor, id: number): Promise<void> {
    await this.own(actor, id);
    await this.deps.rows.delete(id);
  }

  /** A new key replaces the old one at once; the answer shows it, once. */
  async rotateSecret(actor: Actor, id: number): Promise<{ secret: string }> {
    await this.own(actor, id);
    const key = newSigningKey();
    await this.deps.rows.update(id, { secret: key }, this.now());
    return { secret: secretOf(key) };
  }

  async deliveries(actor: Actor, id: number, page: PageRequest) {
    await this.own(actor, id);
    const { rows, total } = await this.deps.rows.deliveries(id, page);
    return pageOf(rows, total, page);
  }

  /** The same message (its id, its body) sent again, its earlier attempts kept in its log. */
  async redeliver(actor: Actor, id: number, deliveryId: string): Promise<Delivery> {
    await this.own(actor, id);
    const delivery = await this.deps.rows.delivery(deliveryId);
    if (!delivery || delivery.webhookId !== id) throw notFound(`Delivery ${deliveryId} of webhook ${id} not found.`);
    // A pending one has its job already: a second would send it twice.
    if (delivery.state === 'pending')
      throw conflict(`Delivery ${deliveryId} is still pending: it is tried again on its own.`);
    await this.deps.transact(async () => {
      await this.deps.rows.reopen(deliveryId, this.now());
      await this.enqueue(deliveryId);
    });
    return (await this.deps.rows.delivery(deliveryId))!;
  }

  /** A `webhook.test` event to this endpoint alone, sent whether or not it is enabled. */
  async test(actor: Actor, id: number): Promise<Delivery> {
    await this.own(actor, id);
    const deliveryId = await this.deps.transact(() =>
      this.record(id, TEST_EVENT, { webhook_id: id, message: 'A test event from Pageblocks.' }),
    );
    return (await this.deps.rows.delivery(deliveryId))!;
  }

  async within<T>(work: () => Promise<T>, eventsOf: (result: T) => WebhookEvent[]): Promise<T> {
    return this.deps.transact(async () => {
      const result = await work();
      for (const event of eventsOf(result)) {
        if ('pageId' in event) {
          const page = await this.deps.rows.page(event.pageId);
          const made = page && pageEvent(event.type, page, event.data);
          if (made) await this.notify(made.userId, made.type, made.data);
          continue;
        }
        const users = 'userId' in event ? [event.userId] : await this.deps.rows.blockAudience(event.blockId);
        for (const userId of users) await this.notify(userId, event.type, event.data);
        if ('blockId' in event && event.type === 'block.revised') {
          for (const page of await this.deps.rows.outdatedPages(event.blockId)) {
            const outdated = pageEvent('page.outdated', page, { block_id: event.blockId, block: event.data });
            await this.notify(page.owner_id, outdated.type, outdated.data);
          }
        }
      }
      return result;
    });
  }

  async withinFor<T>(userId: number, work: () => Promise<T>, eventsOf: (result: T) => WebhookEvent[]): Promise<T> {
    // Read before the work, never kept: an event goes to the webhooks that exist when its write starts.
    if (!(await this.deps.rows.anyEnabled({ userId }))) return work();
    return this.within(work, eventsOf);
  }

  async pageWrite<T>(pageId: number, change: string, work: () => Promise<T>): Promise<T> {
    if (!(await this.deps.rows.anyEnabled({ pageId }))) return work();
    return this.deps.transact(async () => {
      const before = await this.deps.rows.page(pageId);
      const result = await work();
      const after = await this.deps.rows.page(pageId);
      if (before && after && after.version !== before.version) {
        const event = pageEvent('page.updated', after, { change });
        await this.notify(event.userId, event.type, event.data);
      }
      return result;
    });
  }

  /** The job's work: one attempt. Throws only to be tried again. */
  async run(job: Job): Promise<void> {
    const delivery = await this.deps.rows.delivery(String(job.data.deliveryId));
    if (!delivery || delivery.state !== 'pending') return;
    const hook = await this.deps.rows.find(delivery.webhookId);
    if (!hook) return;
    const attempt = delivery.attempts + 1;
    const at = this.deps.clock.now();
    if (!hook.enabled && delivery.event !== TEST_EVENT) {
      const log = { attempt, at: at.toISOString(), responseStatus: null, durationMs: 0, responseExcerpt: null };
      await this.deps.rows.recordAttempt(delivery.id, { ...log, error: 'The endpoint is disabled.' }, 'failed');
      return;
    }
    const result = await this.deps.send({
      url: hook.url,
      headers: signedHeaders(hook.secret, delivery.id, at, delivery.payload),
      body: delivery.payload,
    });
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const again = !ok && result.transient && job.attempt <= this.deps.settings.retryLimit;
    const log: DeliveryAttempt = {
      attempt,
      at: at.toISOString(),
      responseStatus: result.status,
      durationMs: result.durationMs,
      error: ok ? null : (result.error ?? `The receiver answered ${result.status}.`),
      responseExcerpt: result.excerpt,
    };
    await this.deps.rows.recordAttempt(delivery.id, log, ok ? 'delivered' : again ? 'pending' : 'failed');
    if (delivery.event === TEST_EVENT) {
      if (again) throw new Error(log.error!);
      return;
    }
    if (ok) return this.deps.rows.succeeded(hook.id);
    if (again) throw new Error(log.error!);
    await this.deps.rows.failed(hook.id, {
      disableAfter: this.deps.settings.disableAfter,
      reason: `${deliveriesInARow(this.deps.settings.disableAfter)} failed; the last: ${log.error}`,
      now: this.now(),
    });
  }

  private async notify(userId: number, type: string, data: Record<string, unknown>) {
    for (const webhookId of await this.deps.rows.subscribed(userId, type)) await this.record(webhookId, type, data);
  }

  /** One delivery and its job, in the caller's transaction. */
  private async record(webhookId: number, type: string, data: Record<string, unknown>): Promise<string> {
    const id = `msg_${randomUUID().replace(/-/g, '')}`;
    const timestamp = this.now();
    const payload = JSON.stringify({ type, timestamp, data });
    await this.deps.rows.addDelivery({ id, webhookId, event: type, payload, now: timestamp });
    await this.enqueue(id);
    return id;
  }

  private enqueue(deliveryId: string) {
    return this.deps.jobs.send(DELIVER_JOB, { deliveryId }, { retryLimit: this.deps.settings.retryLimit });
  }

  /** The actor's webhook; anyone else's, administrators' included, is "not found". */
  private async own(actor: Actor, id: number) {
    const hook = await this.deps.rows.find(id);
    if (!hook || hook.userId !== actor.userId) throw notFound(`Webhook ${id} not found.`);
    return hook;
  }

  private now() {
    return this.deps.clock.now().toISOString();
  }
}

const unique = (events: string[]) => [...new Set(events)];

const deliveriesInARow = (n: number) => (n === 1 ? 'The last delivery' : `${n} deliveries in a row`);
