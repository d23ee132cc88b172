import { conflict } from '../../shared/errors.js';
import type { PageTypesRepository } from '../../modules/catalog/catalog.js';
import type { Database } from '../dialects/dialect.js';
import { countOf } from './rows.js';

export function pageTypesRepository({ db, dialect }: Database): PageTypesRepository {
  return {
    async list(page) {
      const rows = await db
        .selectFrom('page_types')
        .select(['kind', 'title'])
        .orderBy('kind')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      const total = await db
        .selectFrom('page_types')
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirst();
      return { rows, total: countOf(total) };
    },
    async find(kind) {
      return db.selectFrom('page_types').select(['kind', 'title']).where('kind', '=', kind).executeTakeFirst();
    },
    async create(input) {
      try {
        return await db.insertInto('page_types').values(input).returning(['kind', 'title']).executeTakeFirstOrThrow();
      } catch (error) {
        if (dialect.isUniqueViolation(error)) {
          throw conflict(`Page type ${input.kind} already exists.`, [
            { path: 'kind', message: 'This kind already exists.' },
          ]);
        }
        throw error;
      }
    },
    async update(kind, title) {
      return db
        .updateTable('page_types')
        .set({ title })
        .where('kind', '=', kind)
        .returning(['kind', 'title'])
        .executeTakeFirst();
    },
    async delete(kind) {
      try {
        const result = await db.deleteFrom('page_types').where('kind', '=', kind).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      } catch (error) {
        // pages.kind references the type: the database refuses while a page has it.
        if (dialect.isForeignKeyViolation(error))
          throw conflict(`Page type ${kind} is used by pages: change or delete them first.`);
        throw error;
      }
    },
  };
}
