import {
  blocksRefused,
  collectionNotFound,
  unavailable,
  type CollectionsRepository,
  type OwnedCollection,
} from '../../modules/collections/collections.js';
import type { Database } from '../dialects/dialect.js';
import { countOf } from './rows.js';
import { readAll } from '../read-all.js';
import { invalidReference, isGone, missingIds } from './references.js';

export function collectionsRepository({ db, dialect }: Database): CollectionsRepository {
  async function withBlocks<T extends { id: number }>(rows: T[]): Promise<(T & { block_ids: number[] })[]> {
    if (rows.length === 0) return [];
    const links = await db
      .selectFrom('collection_blocks')
      .select(['collection_id', 'block_id'])
      .where(
        'collection_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('position')
      .execute();
    return rows.map((r) => ({ ...r, block_ids: links.filter((l) => l.collection_id === r.id).map((l) => l.block_id) }));
  }

  return {
    async list(viewerId, page) {
      const base = db
        .selectFrom('collections')
        .where((eb) => eb.or([eb('scope', '=', 'global'), eb('owner_id', '=', viewerId)]));
      const [rows, total] = await readAll(
        db,
        () =>
          base
            .select(['id', 'name', 'scope', 'created_at'])
            .orderBy('id')
            .limit(page.limit)
            .offset(page.offset)
            .execute(),
        () => base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst(),
      );
      return { rows: await withBlocks(rows), total: countOf(total) };
    },
    async find(id): Promise<OwnedCollection | undefined> {
      const row = await db
        .selectFrom('collections')
        .select(['id', 'name', 'scope', 'owner_id', 'created_at'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? (await withBlocks([row]))[0] : undefined;
    },
    async create(input) {
      const { id } = await db
        .insertInto('collections')
        .values({ owner_id: input.ownerId, scope: input.scope, name: input.name, created_at: input.now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    },
    async blocksFor(ids) {
      if (ids.length === 0) return [];
      return db.selectFrom('blocks').select(['id', 'scope', 'owner_id']).where('id', 'in', ids).execute();
    },
    async append(id, blockIds) {
      // The collection or a block deleted since the service looked: the foreign keys refuse the rows.
      const gone = async () => {
        if (await isGone(db, 'collections', id)) return collectionNotFound(id);
        const missing = await missingIds(db, 'blocks', blockIds);
        if (missing.size === 0) return undefined;
        return blocksRefused(
          blockIds.flatMap((blockId, i) =>
            missing.has(blockId) ? [{ path: `block_ids[${i}]`, message: unavailable(blockId) }] : [],
          ),
        );
      };
      const unique = [...new Set(blockIds)];
      await invalidReference(
        dialect,
        () =>
          db.transaction().execute(async (trx) => {
            const present = await trx
              .selectFrom('collection_blocks')
              .select(['block_id', 'position'])
              .where('collection_id', '=', id)
              .execute();
            const have = new Set(present.map((p) => p.block_id));
            let next = present.reduce((max, p) => Math.max(max, p.position + 1), 0);
            const fresh = unique.filter((b) => !have.has(b));
            if (fresh.length) {
              await trx
                .insertInto('collection_blocks')
                .values(fresh.map((block_id) => ({ collection_id: id, block_id, position: next++ })))
                .onConflict((oc) => oc.columns(['collection_id', 'block_id']).doNothing())
                .execute();
            }
          }),
        gone,
      );
    },
    async reorder(id, blockIds) {
      await db.transaction().execute(async (trx) => {
        for (const [position, blockId] of blockIds.entries()) {
          await trx
            .updateTable('collection_blocks')
            .set({ position })
            .where('collection_id', '=', id)
            .where('block_id', '=', blockId)
            .execute();
        }
      });
    },
    async delete(id) {
      await db.deleteFrom('collections').where('id', '=', id).execute();
    },
  };
}
