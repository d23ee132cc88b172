import type { FoldersRepository } from '../../modules/folders/folders.js';
import type { Database } from '../dialects/dialect.js';
import { countOf } from './rows.js';
import { readAll } from '../read-all.js';

const COLUMNS = ['id', 'site_id', 'parent_id', 'name', 'created_at'] as const;

export function foldersRepository({ db }: Database): FoldersRepository {
  return {
    async list(query) {
      let base = db.selectFrom('folders').where('owner_id', '=', query.ownerId);
      if (query.siteId !== undefined) base = base.where('site_id', '=', query.siteId);
      const [rows, total] = await readAll(
        db,
        () => base.select(COLUMNS).orderBy('id').limit(query.limit).offset(query.offset).execute(),
        () => base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst(),
      );
      return { rows, total: countOf(total) };
    },
    find: (id) =>
      db
        .selectFrom('folders')
        .select([...COLUMNS, 'owner_id'])
        .where('id', '=', id)
        .executeTakeFirst(),
    async ancestors(id) {
      const chain: number[] = [];
      let current: number | null = id;
      // Trees are shallow; the bound stops a corrupt loop from spinning forever.
      while (current !== null && chain.length < 1000 && !chain.includes(current)) {
        chain.push(current);
        const row: { parent_id: number | null } | undefined = await db
          .selectFrom('folders')
          .select('parent_id')
          .where('id', '=', current)
          .executeTakeFirst();
        current = row?.parent_id ?? null;
      }
      return chain;
    },
    create: (input) =>
      db
        .insertInto('folders')
        .values({
          owner_id: input.ownerId,
          site_id: input.siteId,
          parent_id: input.parentId,
          name: input.name,
          created_at: input.now,
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow(),
    update: (id, patch) => {
      // Named columns only: a body's extra key (site_id, owner_id) never reaches the row.
      const columns = {
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.parent_id !== undefined && { parent_id: patch.parent_id }),
      };
      const query = Object.keys(columns).length
        ? db.updateTable('folders').set(columns).where('id', '=', id).returning(COLUMNS)
        : db.selectFrom('folders').select(COLUMNS).where('id', '=', id);
      return query.executeTakeFirstOrThrow();
    },
    async delete(id) {
      await db.deleteFrom('folders').where('id', '=', id).execute();
    },
  };
}
