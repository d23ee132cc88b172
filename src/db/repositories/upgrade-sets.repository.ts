import type { Kysely, Selectable } from 'kysely';
import { conflict } from '../../shared/errors.js';
import type { UpgradeSetRecord, UpgradeSetsRepository } from '../../modules/pages/upgrade-sets.js';
import type { Database } from '../dialects/dialect.js';
import type { DB } from '../schema.js';
import { retrying } from '../retry.js';
import { pagesRepositoryOn } from './pages/pages.repository.js';
import { pageWriteKit, type PagesOptions } from './pages/page-writes.js';
import { versionRestore } from './pages/version-restore.js';

/**
 * Upgrade sets and their pages' writes. Each call is one transaction: the
 * pages' own writes (re-pin, restore) run on it, each under its page's lock,
 * pages in id order (two sets over the same pages never wait on each other in
 * a circle), so that a set is applied or reverted on every page or on none.
 */
export function upgradeSetsRepository(database: Database, options: PagesOptions): UpgradeSetsRepository {
  const { db, dialect } = database;

  const versionOf = async (trx: Kysely<DB>, pageId: number) =>
    (await trx.selectFrom('pages').select('version').where('id', '=', pageId).executeTakeFirstOrThrow()).version;

  type SetRow = Selectable<DB['upgrade_sets']>;
  /** The sets with their pages, in the sets' order (one read of the pages for all of them). */
  const withPages = async (trx: Kysely<DB>, sets: SetRow[]): Promise<UpgradeSetRecord[]> => {
    if (sets.length === 0) return [];
    const pages = await trx
      .selectFrom('upgrade_set_pages')
      .select(['set_id', 'page_id', 'version_before', 'version_after', 'instances'])
      .where(
        'set_id',
        'in',
        sets.map((s) => s.id),
      )
      .orderBy('set_id')
      .orderBy('position')
      .execute();
    return sets.map((set) => ({
      id: set.id,
      owner_id: set.owner_id,
      block_id: set.block_id,
      to: { major: set.to_major, minor: set.to_minor },
      created_at: set.created_at,
      reverted_at: set.reverted_at,
      pages: pages.filter((p) => p.set_id === set.id).map(({ set_id: _set, ...p }) => p),
    }));
  };

  const find = async (trx: Kysely<DB>, id: number): Promise<UpgradeSetRecord | undefined> => {
    const set = await trx.selectFrom('upgrade_sets').selectAll().where('id', '=', id).executeTakeFirst();
    return set && (await withPages(trx, [set]))[0];
  };

  return {
    find: (id) => find(db, id),

    async list(ownerId, blockId, { limit, offset }) {
      const mine = db.selectFrom('upgrade_sets').where('owner_id', '=', ownerId).where('block_id', '=', blockId);
      const { n } = await mine.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      const sets = await mine.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
      return { sets: await withPages(db, sets), total: Number(n) };
    },

    apply: ({ ownerId, blockId, to, pages, now, by }) =>
      retrying(dialect, () =>
        db.transaction().execute(async (trx) => {
          const { id } = await trx
            .insertInto('upgrade_sets')
            .values({
              owner_id: ownerId,
              block_id: blockId,
              to_major: to.major,
              to_minor: to.minor,
              instances: pages.reduce((n, p) => n + p.changes.length, 0),
              created_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          const repo = pagesRepositoryOn(database, trx, options);
          const order = pages
            .map((page, position) => ({ page, position }))
            .sort((a, b) => a.page.pageId - b.page.pageId);
          for (const { page, position } of order) {
            await repo.withPageLock(page.pageId, async (locked) => {
              const before = await versionOf(trx, page.pageId);
              const now_ = new Map((await locked.blocks(page.pageId)).map((b) => [b.id, b.revision_id]));
              const moved = page.changes.find((c) => now_.get(c.pageBlockId) !== c.expectRevisionId);
              if (moved) {
                const message = `Page ${page.pageId} changed since the plan was read (instance ${moved.pageBlockId}): nothing was upgraded; try again.`;
                throw conflict(message, [{ path: `pages[${position}]`, message, code: 'conflict' }]);
              }
              await locked.repin({ pageId: page.pageId, changes: page.changes, now, by });
              await trx
                .insertInto('upgrade_set_pages')
                .values({
                  set_id: id,
                  page_id: page.pageId,
                  position,
                  version_before: before,
                  version_after: await versionOf(trx, page.pageId),
                  instances: page.changes.length,
                })
                .execute();
            });
          }
          return (await find(trx, id))!;
        }),
      ),

    revert: ({ set, versions, now, by }) =>
      retrying(dialect, () =>
        db.transaction().execute(async (trx) => {
          const { restore } = versionRestore(pageWriteKit(database, trx, options));
          const byPage = new Map(versions.map((v) => [v.page_id, v]));
          for (const page of [...set.pages].sort((a, b) => a.page_id - b.page_id))
            await restore({ version: byPage.get(page.page_id)!, by, now });
          await trx.updateTable('upgrade_sets').set({ reverted_at: now }).where('id', '=', set.id).execute();
          return (await find(trx, set.id))!;
        }),
      ),
  };
}
