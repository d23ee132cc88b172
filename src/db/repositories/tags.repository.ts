import { conflict } from '../../shared/errors.js';
import type { TagsRepository } from '../../modules/catalog/catalog.js';
import type { Database } from '../dialects/dialect.js';
import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';
import { reindexBlock } from './block-writes.js';
import { countOf } from './rows.js';

const TAG_COLUMNS = ['id', 'name', 'slug'] as const;

const slugTaken = (slug: string | undefined) =>
  conflict(`The slug "${slug}" is already taken.`, [{ path: 'slug', message: 'This slug is already taken.' }]);

/** Block tags (`tags`) or layout tags (`layout_tags`): two tables of the same shape. */
export function tagsRepository({ db, dialect }: Database, table: 'tags' | 'layout_tags'): TagsRepository {
  // A slug race is settled by the unique index on slug, never by a check first.
  const guardSlug = async <T>(slug: string | undefined, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (dialect.isUniqueViolation(error)) throw slugTaken(slug);
      throw error;
    }
  };
  const reindexTagged = async (trx: Kysely<DB>, tagId: number) => {
    const tagged = await trx.selectFrom('block_tags').select('block_id').where('tag_id', '=', tagId).execute();
    for (const { block_id } of tagged) await reindexBlock(trx, dialect, block_id);
  };
  const find = (id: number) => db.selectFrom(table).select(TAG_COLUMNS).where('id', '=', id).executeTakeFirst();

  return {
    async list(page) {
      const rows = await db
        .selectFrom(table)
        .select(TAG_COLUMNS)
        .orderBy('name')
        .orderBy('id')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      const total = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirst();
      return { rows, total: countOf(total) };
    },
    find,
    async create(input) {
      return guardSlug(input.slug, () =>
        db.insertInto(table).values(input).returning(TAG_COLUMNS).executeTakeFirstOrThrow(),
      );
    },
    async update(id, patch) {
      if (Object.keys(patch).length === 0) return find(id);
      return guardSlug(patch.slug, () =>
        db.transaction().execute(async (trx) => {
          const saved = await trx
            .updateTable(table)
            .set(patch)
            .where('id', '=', id)
            .returning(TAG_COLUMNS)
            .executeTakeFirst();
          // Tag names are in the blocks' search entries: a rename re-indexes them in the same transaction.
          if (table === 'tags') await reindexTagged(trx, id);
          return saved;
        }),
      );
    },
    async delete(id) {
      // Blocks and layouts lose the tag (cascades); blocks' search entries lose its name.
      return db.transaction().execute(async (trx) => {
        const tagged =
          table === 'tags'
            ? await trx.selectFrom('block_tags').select('block_id').where('tag_id', '=', id).execute()
            : [];
        const result = await trx.deleteFrom(table).where('id', '=', id).executeTakeFirst();
        for (const { block_id } of tagged) await reindexBlock(trx, dialect, block_id);
        return Number(result.numDeletedRows) > 0;
      });
    },
  };
}
