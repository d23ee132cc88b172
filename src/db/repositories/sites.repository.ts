import type { Database } from '../dialects/dialect.js';
import { layoutUnavailable, siteNotFound, type SitesRepository } from '../../modules/sites/sites.js';
import { countOf } from './rows.js';
import { prepared } from '../prepared.js';
import { invalidReference, isGone } from './references.js';
import { retrying } from '../retry.js';

const SITE_COLUMNS = ['id', 'name', 'domain', 'layout_id', 'created_at', 'updated_at'] as const;

export function sitesRepository({ db, dialect, readNow }: Database): SitesRepository {
  // Every page write checks its site: compiled once, run past Kysely.
  const findSite = prepared(
    db,
    1,
    (id: number) =>
      db
        .selectFrom('sites')
        .select([...SITE_COLUMNS, 'user_id'])
        .where('id', '=', id),
    readNow,
    'first',
  );
  return {
    async list(userId, page) {
      const rows = await db
        .selectFrom('sites')
        .select(SITE_COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('id')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      const total = await db
        .selectFrom('sites')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return { rows, total: countOf(total) };
    },
    async find(id) {
      return (await findSite(id))[0];
    },
    async create(input) {
      return db
        .insertInto('sites')
        .values({
          user_id: input.userId,
          name: input.name,
          domain: input.domain,
          layout_id: null,
          created_at: input.now,
          updated_at: input.now,
        })
        .returning(SITE_COLUMNS)
        .executeTakeFirstOrThrow();
    },
    async update(id, patch) {
      // Named columns only: a body's extra key (user_id, id) never reaches the row.
      const columns = {
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.domain !== undefined && { domain: patch.domain }),
        ...(patch.layout_id !== undefined && { layout_id: patch.layout_id }),
        updated_at: patch.updated_at,
      };
      // The site or its new layout deleted since the service looked: no row, or the foreign key refuses it.
      const site = await invalidReference(
        dialect,
        () => db.updateTable('sites').set(columns).where('id', '=', id).returning(SITE_COLUMNS).executeTakeFirst(),
        async () => ((await isGone(db, 'layouts', patch.layout_id)) ? layoutUnavailable(patch.layout_id!) : undefined),
      );
      if (!site) throw siteNotFound(id);
      return site;
    },
    async delete(id) {
      // Clearing its pages' site_id waits for their locks; a page write in the same
      // moment may wait for the site (its foreign key): PostgreSQL gives one up, tried again here.
      await retrying(dialect, () => db.deleteFrom('sites').where('id', '=', id).execute());
    },
  };
}
