import type { Selectable } from 'kysely';
import type {
  Delivery,
  DeliveryAttempt,
  PageRef,
  Webhook,
  WebhookRepository,
} from '../../modules/webhooks/webhooks.js';
import type { Database } from '../dialects/dialect.js';
import { prepared } from '../prepared.js';
import type { WebhookDeliveriesTable, WebhooksTable } from '../schema.js';

const hookOf = (row: Selectable<WebhooksTable>): Webhook & { secret: string } => ({
  id: Number(row.id),
  userId: Number(row.user_id),
  url: row.url,
  description: row.description,
  events: JSON.parse(row.events) as string[],
  enabled: Boolean(row.enabled),
  disabledReason: row.disabled_reason,
  disabledAt: row.disabled_at,
  consecutiveFailures: Number(row.consecutive_failures),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  secret: row.secret,
});

const withoutSecret = ({ secret: _secret, ...hook }: Webhook & { secret: string }): Webhook => hook;

const deliveryOf = (row: Selectable<WebhookDeliveriesTable>): Delivery => ({
  id: row.id,
  webhookId: Number(row.webhook_id),
  event: row.event,
  payload: row.payload,
  state: row.state,
  attempts: Number(row.attempts),
  responseStatus: row.response_status === null ? null : Number(row.response_status),
  lastError: row.last_error,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const pageRefOf = (row: PageRef): PageRef => ({
  ...row,
  id: Number(row.id),
  owner_id: Number(row.owner_id),
  site_id: row.site_id === null ? null : Number(row.site_id),
  version: Number(row.version),
});

export function webhooksRepository({ db, readNow }: Database): WebhookRepository {
  // Read before every page write (the outbox's fast path): compiled once, run past Kysely.
  const userHasWebhooks = prepared(
    db,
    1,
    (userId: number) =>
      db.selectFrom('webhooks').select('id').where('user_id', '=', userId).where('enabled', '=', true).limit(1),
    readNow,
    'first',
  );
  const ownerHasWebhooks = prepared(
    db,
    1,
    (pageId: number) =>
      db
        .selectFrom('webhooks')
        .innerJoin('pages', 'pages.owner_id', 'webhooks.user_id')
        .select('webhooks.id')
        .where('pages.id', '=', pageId)
        .where('webhooks.enabled', '=', true)
        .limit(1),
    readNow,
    'first',
  );
  return {
    async create({ userId, url, description, events, secret, now }) {
      const row = await db
        .insertInto('webhooks')
        .values({
          user_id: userId,
          url,
          description,
          events: JSON.stringify(events),
          secret,
          enabled: true,
          disabled_reason: null,
          disabled_at: null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return withoutSecret(hookOf(row));
    },

    async find(id) {
      const row = await db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
      return row && hookOf(row);
    },

    async list(userId, { limit, offset }) {
      const rows = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute();
      const { total } = await db
        .selectFrom('webhooks')
        .select((eb) => eb.fn.countAll<number | string>().as('total'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return { rows: rows.map((row) => withoutSecret(hookOf(row))), total: Number(total) };
    },

    async update(id, change, now) {
      await db
        .updateTable('webhooks')
        .set({
          ...(change.url !== undefined && { url: change.url }),
          ...(change.description !== undefined && { description: change.description }),
          ...(change.events !== undefined && { events: JSON.stringify(change.events) }),
          ...(change.secret !== undefined && { secret: change.secret }),
          ...(change.enabled === true && {
            enabled: true,
            disabled_reason: null,
            disabled_at: null,
            consecutive_failures: 0,
          }),
          ...(change.enabled === false && {
            enabled: false,
            disabled_reason: 'Disabled by its owner.',
            disabled_at: now,
          }),
          updated_at: now,
        })
        .where('id', '=', id)
        .execute();
    },

    async delete(id) {
      await db.deleteFrom('webhooks').where('id', '=', id).execute();
    },

    async page(pageId) {
      const row = await db
        .selectFrom('pages')
        .select(['id', 'owner_id', 'site_id', 'name', 'slug', 'kind', 'version'])
        .where('id', '=', pageId)
        .executeTakeFirst();
      return row && pageRefOf(row);
    },

    async blockAudience(blockId) {
      const owner = await db
        .selectFrom('blocks')
        .select('owner_id')
        .where('id', '=', blockId)
        .where('scope', '=', 'user')
        .executeTakeFirst();
      const users = await db
        .selectFrom('page_blocks')
        .innerJoin('pages', 'pages.id', 'page_blocks.page_id')
        .select('pages.owner_id')
        .distinct()
        .where('page_blocks.block_id', '=', blockId)
        .execute();
      const all = [...(owner ? [owner.owner_id] : []), ...users.map((row) => row.owner_id)].map(Number);
      return [...new Set(all)];
    },

    async outdatedPages(blockId) {
      const rows = await db
        .selectFrom('pages')
        .select(['id', 'owner_id', 'site_id', 'name', 'slug', 'kind', 'version'])
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('page_blocks')
              .innerJoin('blocks', 'blocks.id', 'page_blocks.block_id')
              .select('page_blocks.id')
              .whereRef('page_blocks.page_id', '=', 'pages.id')
              .where('page_blocks.block_id', '=', blockId)
              .whereRef('page_blocks.revision_id', '<>', 'blocks.current_revision_id'),
          ),
        )
        .orderBy('id')
        .execute();
      return rows.map(pageRefOf);
    },

    async subscribed(userId, type) {
      const rows = await db
        .selectFrom('webhooks')
        .select(['id', 'events'])
        .where('user_id', '=', userId)
        .where('enabled', '=', true)
        .execute();
      return rows.filter((row) => (JSON.parse(row.events) as string[]).includes(type)).map((row) => Number(row.id));
    },

    async anyEnabled(whose) {
      const rows = await ('userId' in whose ? userHasWebhooks(whose.userId) : ownerHasWebhooks(whose.pageId));
      return rows.length > 0;
    },

    async addDelivery({ id, webhookId, event, payload, now }) {
      await db
        .insertInto('webhook_deliveries')
        .values({
          id,
          webhook_id: webhookId,
          event,
          payload,
          state: 'pending',
          response_status: null,
          last_error: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    },

    async delivery(id) {
      const row = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
      return row && deliveryOf(row);
    },

    async deliveries(webhookId, { limit, offset }) {
      const rows = await db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('webhook_id', '=', webhookId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute();
      const { total } = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<number | string>().as('total'))
        .where('webhook_id', '=', webhookId)
        .executeTakeFirstOrThrow();
      const ids = rows.map((row) => row.id);
      const attempts = ids.length
        ? await db
            .selectFrom('webhook_attempts')
            .selectAll()
            .where('delivery_id', 'in', ids)
            .orderBy('attempt')
            .execute()
        : [];
      return {
        rows: rows.map((row) => ({
          ...deliveryOf(row),
          attemptLog: attempts
            .filter((a) => a.delivery_id === row.id)
            .map((a): DeliveryAttempt => ({
              attempt: Number(a.attempt),
              at: a.at,
              responseStatus: a.response_status === null ? null : Number(a.response_status),
              durationMs: Number(a.duration_ms),
              error: a.error,
              responseExcerpt: a.response_excerpt,
            })),
        })),
        total: Number(total),
      };
    },

    async recordAttempt(deliveryId, attempt, state) {
      await db
        .insertInto('webhook_attempts')
        .values({
          delivery_id: deliveryId,
          attempt: attempt.attempt,
          at: attempt.at,
          response_status: attempt.responseStatus,
          duration_ms: attempt.durationMs,
          error: attempt.error,
          response_excerpt: attempt.responseExcerpt,
        })
        .execute();
      await db
        .updateTable('webhook_deliveries')
        .set({
          state,
          attempts: attempt.attempt,
          response_status: attempt.responseStatus,
          last_error: attempt.error,
          updated_at: attempt.at,
        })
        .where('id', '=', deliveryId)
        .execute();
    },

    async reopen(deliveryId, now) {
      await db
        .updateTable('webhook_deliveries')
        .set({ state: 'pending', updated_at: now })
        .where('id', '=', deliveryId)
        .execute();
    },

    async succeeded(webhookId) {
      await db
        .updateTable('webhooks')
        .set({ consecutive_failures: 0 })
        .where('id', '=', webhookId)
        .where('consecutive_failures', '>', 0)
        .execute();
    },

    async failed(webhookId, { disableAfter, reason, now }) {
      const row = await db
        .updateTable('webhooks')
        .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
        .where('id', '=', webhookId)
        .returning('consecutive_failures')
        .executeTakeFirst();
      if (!row || Number(row.consecutive_failures) < disableAfter) return false;
      await db
        .updateTable('webhooks')
        .set({ enabled: false, disabled_reason: reason, disabled_at: now })
        .where('id', '=', webhookId)
        .where('enabled', '=', true)
        .execute();
      return true;
    },
  };
}
