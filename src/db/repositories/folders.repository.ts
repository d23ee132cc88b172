import { siteNotFound } from '../../modules/sites/sites.js';
import { folderNotFound, parentNotInSite, type FoldersRepository } from '../../modules/folders/folders.js';
import type { Database } from '../dialects/dialect.js';
import { countOf } from './rows.js';
import { readAll } from '../read-all.js';
import { invalidReference, isGone } from './references.js';
import { retrying } from '../retry.js';

const COLUMNS = ['id', 'site_id', 'parent_id', 'name', 'created_at'] as const;

export function foldersRepository({ db, dialect }: Database): FoldersRepository {
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
      // The site or the parent deleted since the service looked: the foreign keys refuse the row.
      invalidReference(
        dialect,
        () =>
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
        async () => {
          if (await isGone(db, 'sites', input.siteId)) return siteNotFound(input.siteId, 'site_id');
          if (await isGone(db, 'folders', input.parentId)) return parentNotInSite(input.parentId!, input.siteId);
          return undefined;
        },
      ),
    async update(id, patch) {
      // Named columns only: a body's extra key (site_id, owner_id) never reaches the row.
      const columns = {
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.parent_id !== undefined && { parent_id: patch.parent_id }),
      };
      const query = Object.keys(columns).length
        ? db.updateTable('folders').set(columns).where('id', '=', id).returning(COLUMNS)
        : db.selectFrom('folders').select(COLUMNS).where('id', '=', id);
      // The folder or its new parent deleted since the service looked: no row, or the foreign key refuses it.
      const folder = await invalidReference(
        dialect,
        () => query.executeTakeFirst(),
        async () => {
          const self = await db.selectFrom('folders').select('site_id').where('id', '=', id).executeTakeFirst();
          if (!self) return folderNotFound(id);
          if (await isGone(db, 'folders', patch.parent_id)) return parentNotInSite(patch.parent_id!, self.site_id);
          return undefined;
        },
      );
      if (!folder) throw folderNotFound(id);
      return folder;
    },
    async delete(id) {
      // Clearing its pages' folder_id waits for their locks, as a site's delete does (a deadlock is tried again).
      await retrying(dialect, () => db.deleteFrom('folders').where('id', '=', id).execute());
    },
  };
}
