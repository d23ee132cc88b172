import { sql, type Kysely } from 'kysely';
import { fieldError } from '../../../shared/errors.js';
import type { NewInstance, PagesRepository } from '../../../modules/pages/pages.js';
import type { Dialect } from '../../dialects/dialect.js';
import type { DB } from '../../schema.js';
import { invalidReference } from '../references.js';
import { toJson } from '../rows.js';
import { instanceRow } from './instance-inserts.js';
import type { PageWriteKit } from './page-writes.js';

/** The writes of a page's instances: each under the page's lock, the page's `updated_at` moved with them. */
export function instanceWrites(
  kit: PageWriteKit,
): Pick<PagesRepository, 'insertBlocks' | 'moveBlock' | 'deleteBlock' | 'updateBlock' | 'repin' | 'replaceBlock'> {
  const {
    dialect,
    locked,
    lockedAt,
    referencesGone,
    inBody,
    missing,
    insertRows,
    libraryFor,
    answers,
    versions,
    versioned,
  } = kit;

  /** The page's instances in order, as the locked transaction sees them. */
  const currentOrder = async (trx: Kysely<DB>, pageId: number) =>
    (
      await trx
        .selectFrom('page_blocks')
        .select(['id', 'order_index'])
        .where('page_id', '=', pageId)
        .orderBy('order_index')
        .orderBy('id')
        .execute()
    ).map((r) => r.id);

  // New rows first take places past the end (free under the unique index), then writeOrder puts them where they go.
  const pastTheEnd = async (trx: Kysely<DB>, pageId: number) => {
    const row = await trx
      .selectFrom('page_blocks')
      .select((eb) => eb.fn.max('order_index').as('last'))
      .where('page_id', '=', pageId)
      .executeTakeFirst();
    return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
  };

  // One INSERT for all of them (a request carries at most 500: 6,500 parameters, within
  // both databases' limits); RETURNING gives the ids in the order of the rows.
  const insertInstances = async (
    trx: Kysely<DB>,
    pageId: number,
    instances: NewInstance[],
    from: number,
    now: string,
  ) => (await insertRows(trx, pageId, instances, from, now)).map((r) => r.id);

  return {
    async insertBlocks({ pageId, position: asked, instances, now, by, expected }) {
      const write = () =>
        lockedAt(pageId, expected, async (trx) => {
          const existing = await answers.instances(trx, pageId);
          const order = existing.map((b) => b.id);
          // The end is the page's as it stands under the lock: it may have lost instances since the caller looked.
          const position = asked ?? order.length;
          if (position > order.length) throw fieldError('position', `position must be within 0..${order.length}.`);
          instances.forEach((instance, i) => {
            const parent = instance.parent_page_block_id;
            if (parent !== null && !order.includes(parent)) {
              throw fieldError(`blocks[${i}].parent_page_block_id`, `Block instance ${parent} is not on this page.`);
            }
          });
          // New rows first take places past the end (free under the unique index), then writeOrder puts them where they go.
          const last = existing.at(-1);
          const rows = await insertRows(trx, pageId, instances, last ? last.order_index + 1 : 0, now);
          const added = answers.written(instances, rows, await libraryFor(trx, instances));
          const ids = rows.map((r) => r.id);
          const next = [...order.slice(0, position), ...ids, ...order.slice(position)];
          await writeOrder(trx, dialect, pageId, next, now);
          const head = await answers.touch(trx, pageId, now);
          await versions.record(trx, { pageId, number: head.version, by, now });
          const byId = new Map([...existing, ...added].map((b) => [b.id, b]));
          return answers.answer(
            head,
            next.map((id, i) => ({ ...byId.get(id)!, order_index: i })),
          );
        });
      return invalidReference(dialect, write, () => referencesGone(undefined, instances, inBody));
    },

    async moveBlock({ pageId, pageBlockId, position, parentId, now, by, expected }) {
      await lockedAt(pageId, expected, async (trx) => {
        const all = await currentOrder(trx, pageId);
        if (!all.includes(pageBlockId)) throw missing(pageBlockId);
        if (position >= all.length) throw fieldError('position', `position must be within 0..${all.length - 1}.`);
        // The parent may have left the page since the caller looked.
        if (parentId != null && !all.includes(parentId))
          throw fieldError('parent_page_block_id', `Block instance ${parentId} is not on this page.`);
        if (parentId !== undefined)
          await trx
            .updateTable('page_blocks')
            .set({ parent_page_block_id: parentId })
            .where('id', '=', pageBlockId)
            .where('page_id', '=', pageId)
            .execute();
        const order = all.filter((id) => id !== pageBlockId);
        order.splice(position, 0, pageBlockId);
        await writeOrder(trx, dialect, pageId, order, now);
        await versioned(trx, pageId, by, now);
      });
    },

    async deleteBlock({ pageId, pageBlockId, now, by, expected }) {
      await lockedAt(pageId, expected, async (trx) => {
        // Children of a layout instance go with it (cascade).
        const { numDeletedRows } = await trx
          .deleteFrom('page_blocks')
          .where('id', '=', pageBlockId)
          .where('page_id', '=', pageId)
          .executeTakeFirst();
        if (!numDeletedRows) throw missing(pageBlockId);
        await writeOrder(trx, dialect, pageId, await currentOrder(trx, pageId), now);
        await versioned(trx, pageId, by, now);
      });
    },

    async updateBlock({ pageId, pageBlockId, values, bindings, now, by, expected }) {
      await lockedAt(pageId, expected, async (trx) => {
        const { numUpdatedRows } = await trx
          .updateTable('page_blocks')
          .set({
            placeholder_values: toJson(values),
            bindings: bindings === null ? null : toJson(bindings),
            updated_at: now,
          })
          .where('id', '=', pageBlockId)
          .where('page_id', '=', pageId)
          .executeTakeFirst();
        if (!numUpdatedRows) throw missing(pageBlockId);
        await versioned(trx, pageId, by, now);
      });
    },

    async repin({ pageId, changes, now, by }) {
      // Run inside withPageLock, which checked the expected version under the same lock.
      await locked(pageId, async (trx) => {
        for (const { pageBlockId, instance } of changes) {
          const {
            page_id: _p,
            order_index: _o,
            created_at: _c,
            parent_page_block_id: _parent,
            ...row
          } = instanceRow(pageId, instance, 0, now);
          await trx
            .updateTable('page_blocks')
            .set(row)
            .where('id', '=', pageBlockId)
            .where('page_id', '=', pageId)
            .execute();
        }
        // A successful upgrade-all that found nothing to upgrade still makes its version (the page's time stays).
        await versioned(trx, pageId, by, now, changes.length > 0);
      });
    },

    async replaceBlock({ pageId, pageBlockId, instance, now, by, expected }) {
      const write = () =>
        lockedAt(pageId, expected, async (trx) => {
          const old = await trx
            .selectFrom('page_blocks')
            .select(['parent_page_block_id'])
            .where('id', '=', pageBlockId)
            .where('page_id', '=', pageId)
            .executeTakeFirst();
          if (!old) throw missing(pageBlockId);
          const order = await currentOrder(trx, pageId);
          const [id] = await insertInstances(
            trx,
            pageId,
            [{ ...instance, parent_page_block_id: old.parent_page_block_id }],
            await pastTheEnd(trx, pageId),
            now,
          );
          // The old instance's children move to the new one before it goes.
          await trx
            .updateTable('page_blocks')
            .set({ parent_page_block_id: id! })
            .where('parent_page_block_id', '=', pageBlockId)
            .execute();
          await trx.deleteFrom('page_blocks').where('id', '=', pageBlockId).execute();
          await writeOrder(
            trx,
            dialect,
            pageId,
            order.map((other) => (other === pageBlockId ? id! : other)),
            now,
          );
          await versioned(trx, pageId, by, now);
          return id!;
        });
      // The body is the one instance: its block is at `block_id`.
      return invalidReference(dialect, write, () => referencesGone(undefined, [instance], () => ''));
    },
  };
}

/**
 * Rewrites the page's order_index as 0..n-1 in the given order. The unique
 * (page_id, order_index) index holds at every row: the old places are first
 * moved out of the way, to negatives (a one-to-one map, so no two collide).
 * Then one statement gives every instance its place from the list of ids (an
 * update per instance was a round trip each: 20 instances, 20 statements).
 */
export async function writeOrder(db: Kysely<DB>, dialect: Dialect, pageId: number, ids: number[], now: string) {
  await db
    .updateTable('page_blocks')
    .set({ order_index: sql<number>`-1 - order_index` })
    .where('page_id', '=', pageId)
    .execute();
  if (ids.length === 0) return;
  await sql`update page_blocks set order_index = o.place - 1, updated_at = ${now} from ${dialect.numberedIds(ids)}
    where page_blocks.id = o.id and page_blocks.page_id = ${pageId}`.execute(db);
}
