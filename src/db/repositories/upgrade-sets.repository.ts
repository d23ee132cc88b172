import { sql, type Kysely, type Selectable } from 'kysely';
import type { StandingPage, UpgradeSetRecord, UpgradeSetsRepository } from '../../modules/pages/upgrade-sets.js';
import { StoredJson } from '../../shared/stored-json.js';
import type { Database } from '../dialects/dialect.js';
import type { DB } from '../schema.js';
import { readAll } from '../read-all.js';
import { retrying } from '../retry.js';
import { fromJson } from './rows.js';
import { repinEach } from './pages/instance-repins.js';
import { pageWriteKit, type PagesOptions } from './pages/page-writes.js';
import { versionRestore } from './pages/version-restore.js';

/** Rows of one insert of a set's pages: 6 columns each, within both databases' parameter limits. */
const SET_PAGES_A_STATEMENT = 1000;

/**
 * Upgrade sets and their pages' writes. Each call is one transaction, so that
 * a set is applied or reverted on every page or on none: applied, every
 * page's re-pins and versions written together (`repinEach`, pages locked in
 * id order); reverted, each page's restore under its lock, pages in id order
 * (two sets over the same pages never wait on each other in a circle).
 */
export function upgradeSetsRepository(database: Database, options: PagesOptions): UpgradeSetsRepository {
  const { db, dialect } = database;

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

  const listed = (column: string, ids: number[]) =>
    sql<boolean>`${sql.ref(column)} in (select id from ${dialect.numberedIds(ids)})`;

  return {
    find: (id) => find(db, id),

    async standing(pageIds) {
      if (pageIds.length === 0) return new Map();
      const [pages, instances] = await readAll(
        db,
        () =>
          db
            .selectFrom('pages')
            .select(['id', 'name', 'slug', 'meta_title', 'meta_description', 'meta_keywords', 'meta_robots'])
            .where(listed('id', pageIds))
            .execute(),
        () =>
          db
            .selectFrom('page_blocks as pb')
            .innerJoin('blocks as b', 'b.id', 'pb.block_id')
            .select([
              'pb.id',
              'pb.page_id',
              'pb.block_id',
              'b.block_type',
              'pb.revision_id',
              'pb.placeholder_values',
              'pb.bindings',
              'pb.parent_page_block_id',
            ])
            .where(listed('pb.page_id', pageIds))
            .orderBy('pb.page_id')
            .orderBy('pb.order_index')
            .orderBy('pb.id')
            .execute(),
      );
      // An instance's snapshot is a copy of its revision's fields: read once a revision, not once an instance.
      const revisionIds = [...new Set(instances.map((i) => i.revision_id))];
      const snapshots = new Map(
        revisionIds.length === 0
          ? []
          : (
              await db
                .selectFrom('block_revisions')
                .select(['id', 'schema_content'])
                .where(listed('id', revisionIds))
                .execute()
            ).map((r) => [r.id, StoredJson.fromText<unknown[]>(r.schema_content)]),
      );
      const out = new Map(
        pages.map(({ id, ...fields }) => [id, { fields, instances: [] as StandingPage['instances'] }]),
      );
      for (const i of instances)
        out.get(i.page_id)?.instances.push({
          id: i.id,
          block_id: i.block_id,
          // Known, the HTML bound reads the revision's kept assets, not the database.
          block_type: i.block_type,
          revision_id: i.revision_id,
          schema_snapshot: snapshots.get(i.revision_id) ?? StoredJson.of([]),
          placeholder_values: fromJson(i.placeholder_values),
          bindings: i.bindings === null ? null : fromJson(i.bindings),
          parent_page_block_id: i.parent_page_block_id,
        });
      return out;
    },

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
          const versions = await repinEach(database, trx, { pages, now, by, historyLimit: options.historyLimit });
          const rows = pages.map((page, position) => ({
            set_id: id,
            page_id: page.pageId,
            position,
            version_before: versions[position]!.before,
            version_after: versions[position]!.after,
            instances: page.changes.length,
          }));
          for (let i = 0; i < rows.length; i += SET_PAGES_A_STATEMENT)
            await trx
              .insertInto('upgrade_set_pages')
              .values(rows.slice(i, i + SET_PAGES_A_STATEMENT))
              .execute();
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
