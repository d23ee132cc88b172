import { sql } from 'kysely';
import { conflict, versionHolds, type ExpectedVersions } from '../../shared/errors.js';
import { blockNotFound, type BlocksRepository, type LoadedBlock } from '../../modules/blocks/blocks.js';
import type { MigrationLink } from '../../modules/blocks/migrations/index.js';
import type { Database } from '../dialects/dialect.js';
import { visibleInLists } from '../dialects/search.js';
import { appendFixes, insertBlock, reindexBlock, replaceTags, writeRevision } from './block-writes.js';
import {
  BLOCK_COLUMNS,
  fromSearchValues,
  searchColumns,
  toPinnable,
  toRecord,
  toRevision,
  type BlockRow,
} from './block-rows.js';
import { countOf, fromJson } from './rows.js';
import { isOutdatedSql, updateStatusSql } from './update-status.js';
import { readAll } from '../read-all.js';
import { prepared } from '../prepared.js';
import { invalidReference, isGone } from './references.js';
import { retrying } from '../retry.js';

/** `in ()` is no SQL: an expectation of no version (tags that name none of ours) is one no row meets. */
const atLeastOne = (expected: NonNullable<ExpectedVersions>): readonly number[] => (expected.length ? expected : [0]);

// Compiled once per number of ids (a list's SQL text depends on its length), for this many lengths.
const PINNABLE_LENGTHS = 64;

export function blocksRepository({ db, dialect, readNow }: Database): BlocksRepository {
  const pinnableReads = new Map<number, (...ids: number[]) => Promise<PinnableRow[]>>();
  const pinnableQuery = (ids: number[]) =>
    db
      .selectFrom('blocks as b')
      .leftJoin('block_revisions as r', 'r.id', 'b.current_revision_id')
      .select([
        'b.id',
        'b.owner_id',
        'b.scope',
        'b.kind',
        'b.name',
        'b.block_type',
        'r.id as revision_id',
        'r.major',
        'r.minor',
        'r.schema_content',
      ])
      .where('b.id', 'in', ids);
  type PinnableRow = Awaited<ReturnType<ReturnType<typeof pinnableQuery>['execute']>>[number];

  /** Tags, revisions and favorites of a page of blocks: three queries, whatever the page size. */
  async function hydrate(rows: Omit<BlockRow, 'search_vector'>[], viewerId: number): Promise<LoadedBlock[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const revisionIds = rows.map((r) => r.current_revision_id).filter((id): id is number => id !== null);
    const [tagRows, revisionRows, favoriteRows] = await readAll(
      db,
      () =>
        db
          .selectFrom('block_tags')
          .select(['block_id', 'tag_id'])
          .where('block_id', 'in', ids)
          .orderBy('tag_id')
          .execute(),
      () =>
        revisionIds.length ? db.selectFrom('block_revisions').selectAll().where('id', 'in', revisionIds).execute() : [],
      () =>
        db
          .selectFrom('favorites')
          .select('block_id')
          .where('user_id', '=', viewerId)
          .where('block_id', 'in', ids)
          .execute(),
    );
    const revisions = new Map(revisionRows.map((r) => [r.id, toRevision(r)]));
    const favorites = new Set(favoriteRows.map((f) => f.block_id));
    // A current revision not found was deleted between the two reads, with its block
    // (revisions go only with their block): that block is gone, not without content.
    const standing = rows.filter((r) => r.current_revision_id === null || revisions.has(r.current_revision_id));
    return standing.map((row) => ({
      ...toRecord(
        row,
        tagRows.filter((t) => t.block_id === row.id).map((t) => t.tag_id),
      ),
      revision: row.current_revision_id === null ? null : (revisions.get(row.current_revision_id) ?? null),
      is_favorite: favorites.has(row.id),
    }));
  }

  return {
    async load(id, viewerId) {
      const row = await db.selectFrom('blocks').select(BLOCK_COLUMNS).where('id', '=', id).executeTakeFirst();
      return row ? (await hydrate([row], viewerId))[0] : undefined;
    },

    async loadMany(ids, viewerId) {
      if (ids.length === 0) return [];
      return hydrate(await db.selectFrom('blocks').select(BLOCK_COLUMNS).where('id', 'in', ids).execute(), viewerId);
    },

    async pinnable(ids) {
      if (ids.length === 0) return [];
      let read = pinnableReads.get(ids.length);
      if (!read) {
        read = prepared(db, ids.length, (...slots: number[]) => pinnableQuery(slots), readNow);
        if (pinnableReads.size < PINNABLE_LENGTHS) pinnableReads.set(ids.length, read);
      }
      return (await read(...ids)).map(toPinnable);
    },

    async list(query) {
      let base = db.selectFrom('blocks').where(visibleInLists(query.viewerId));
      if (query.kind) base = base.where('blocks.kind', '=', query.kind);
      if (query.search) {
        const pattern = `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        base = base.where((eb) =>
          eb.or([
            eb(sql`lower(blocks.name)`, 'like', sql`${pattern} escape '\\'`),
            eb(sql`lower(blocks.description)`, 'like', sql`${pattern} escape '\\'`),
          ]),
        );
      }
      if (query.tagIds?.length) {
        const tagIds = [...new Set(query.tagIds)];
        base = base.where('blocks.id', 'in', (eb) =>
          eb
            .selectFrom('block_tags')
            .select('block_id')
            .where('tag_id', 'in', tagIds)
            .groupBy('block_id')
            .having((h) => h.fn.count('tag_id').distinct(), '=', tagIds.length),
        );
      }
      const [rows, total] = await readAll(
        db,
        () => base.select(BLOCK_COLUMNS).orderBy('blocks.id').limit(query.limit).offset(query.offset).execute(),
        () => base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst(),
      );
      return { rows: await hydrate(rows, query.viewerId), total: countOf(total) };
    },

    async favorites(viewerId, page) {
      const base = db
        .selectFrom('favorites')
        .innerJoin('blocks', 'blocks.id', 'favorites.block_id')
        .where('favorites.user_id', '=', viewerId)
        .where((eb) => eb.or([eb('blocks.scope', '=', 'global'), eb('blocks.owner_id', '=', viewerId)]));
      const [rows, total] = await readAll(
        db,
        () =>
          base
            .select(BLOCK_COLUMNS)
            .orderBy('favorites.created_at', 'desc')
            .orderBy('blocks.id')
            .limit(page.limit)
            .offset(page.offset)
            .execute(),
        () => base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst(),
      );
      return { rows: await hydrate(rows, viewerId), total: countOf(total) };
    },

    async search(query) {
      // The page's blocks with their tags, the viewer's favorite and the current revision
      // come in the search's own statement (on PostgreSQL, its one round trip), not in
      // four more queries as `hydrate` reads them.
      const { rows, total } = await dialect.search.search(db, query, searchColumns(dialect, query.viewerId), readNow);
      return { rows: rows.map(fromSearchValues), total };
    },

    async missingTags(ids) {
      if (ids.length === 0) return [];
      const found = new Set(
        (await db.selectFrom('tags').select('id').where('id', 'in', ids).execute()).map((t) => t.id),
      );
      return ids.filter((id) => !found.has(id));
    },

    async create(input) {
      // A fork whose source was deleted since the service read it: the foreign key refuses the copy.
      return invalidReference(
        dialect,
        () => db.transaction().execute((trx) => insertBlock(trx, dialect, input)),
        async () => ((await isGone(db, 'blocks', input.forkedFromId)) ? blockNotFound(input.forkedFromId!) : undefined),
      );
    },

    async update(input) {
      // The block's row lock excludes other updates of it, not the page writes pinning it meanwhile: with
      // FOR UPDATE, a page write holding its page and checking its new instance's reference waited for the
      // block, while the block's change waited for that page (its pages' versions move): a deadlock, 500 on
      // PostgreSQL. Another shape of the same is tried again.
      return retrying(dialect, () =>
        db.transaction().execute(async (trx) => {
          const locked = await dialect
            .forNoKeyUpdate(
              trx.selectFrom('blocks').select(['current_revision_id', 'edit_version']).where('id', '=', input.id),
            )
            .executeTakeFirst();
          if (locked && !versionHolds(input.expected, locked.edit_version)) return { stale: locked.edit_version };
          if (locked && locked.current_revision_id !== input.basedOn) return 'moved';
          await trx
            .updateTable('blocks')
            .set((eb) => ({ ...input.fields, updated_at: input.now, edit_version: eb('edit_version', '+', 1) }))
            .where('id', '=', input.id)
            .execute();
          if (input.tags) await replaceTags(trx, input.id, input.tags);
          if (input.revision) await writeRevision(trx, input.id, input.revision, input.now);
          else if (input.fixes?.length && input.basedOn !== null) await appendFixes(trx, input.basedOn, input.fixes);
          await reindexBlock(trx, dialect, input.id);
          return 'done' as const;
        }),
      );
    },

    async delete(id, expected) {
      try {
        // Revisions, tags, favorites and the search entry go with the block (cascades);
        // instances on pages hold it back (restrict): the database settles the race.
        // A page write pinning the block in the same moment may deadlock with it: tried again.
        // An expected version is checked by the delete itself: nothing can move it in between.
        const deleted = await retrying(dialect, () => {
          const statement = db.deleteFrom('blocks').where('id', '=', id);
          return (
            expected ? statement.where('edit_version', 'in', atLeastOne(expected)) : statement
          ).executeTakeFirst();
        });
        if (!expected || Number(deleted.numDeletedRows) > 0) return undefined;
        const standing = await db.selectFrom('blocks').select('edit_version').where('id', '=', id).executeTakeFirst();
        return standing && { stale: standing.edit_version };
      } catch (error) {
        if (dialect.isForeignKeyViolation(error)) {
          throw conflict(`Block ${id} is used on pages: remove its instances first (GET /blocks/${id}/usages).`);
        }
        throw error;
      }
    },

    async setFavorite(userId, blockId, on, now) {
      if (!on) {
        await db.deleteFrom('favorites').where('user_id', '=', userId).where('block_id', '=', blockId).execute();
        return;
      }
      await invalidReference(
        dialect,
        () =>
          db
            .insertInto('favorites')
            .values({ user_id: userId, block_id: blockId, created_at: now })
            .onConflict((oc) => oc.columns(['user_id', 'block_id']).doNothing())
            .execute(),
        async () => ((await isGone(db, 'blocks', blockId)) ? blockNotFound(blockId) : undefined),
      );
    },

    async setDeprecated(id, isDeprecated, now) {
      await db
        .updateTable('blocks')
        .set((eb) => ({ is_deprecated: isDeprecated, updated_at: now, edit_version: eb('edit_version', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },

    async setCover(id, key, now) {
      await db
        .updateTable('blocks')
        .set((eb) => ({ cover_key: key, updated_at: now, edit_version: eb('edit_version', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },

    async revisionAt(blockId, version) {
      const row = await db
        .selectFrom('block_revisions')
        .selectAll()
        .where('block_id', '=', blockId)
        .where('major', '=', version.major)
        .where('minor', '=', version.minor)
        .executeTakeFirst();
      return row && toRevision(row);
    },

    async chain(blockId, after, upTo) {
      const rows = await db
        .selectFrom('block_revisions')
        .select(['major', 'minor', 'schema_content', 'migrations'])
        .where('block_id', '=', blockId)
        .where((eb) =>
          eb.and([
            eb.or([
              eb('major', '>', after.major),
              eb.and([eb('major', '=', after.major), eb('minor', '>', after.minor)]),
            ]),
            eb.or([
              eb('major', '<', upTo.major),
              eb.and([eb('major', '=', upTo.major), eb('minor', '<=', upTo.minor)]),
            ]),
          ]),
        )
        .orderBy('major')
        .orderBy('minor')
        .execute();
      return rows.map((r) => ({
        version: { major: r.major, minor: r.minor },
        fields: fromJson<MigrationLink['fields']>(r.schema_content),
        migrations: fromJson<MigrationLink['migrations']>(r.migrations),
      }));
    },

    async revisions(query) {
      const base = db.selectFrom('block_revisions').where('block_id', '=', query.blockId);
      const [rows, total] = await readAll(
        db,
        () =>
          base
            .select(['id', 'major', 'minor', 'changelog', 'created_at'])
            .orderBy('major', 'desc')
            .orderBy('minor', 'desc')
            .orderBy('id', 'desc')
            .limit(query.limit)
            .offset(query.offset)
            .execute(),
        () => base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst(),
      );
      return {
        rows: rows.map((r) => ({
          id: r.id,
          version: { major: r.major, minor: r.minor },
          changelog: r.changelog,
          created_at: r.created_at,
        })),
        total: countOf(total),
      };
    },

    async usages(query) {
      const base = db
        .selectFrom('page_blocks as pb')
        .innerJoin('pages', 'pages.id', 'pb.page_id')
        .innerJoin('blocks', 'blocks.id', 'pb.block_id')
        .innerJoin('block_revisions as cur', 'cur.id', 'blocks.current_revision_id')
        .where('pb.block_id', '=', query.blockId)
        .where('pages.owner_id', '=', query.userId);
      const filtered = query.outdatedOnly ? base.where(isOutdatedSql('pb', 'cur')) : base;
      const [rows, total, outdated] = await readAll(
        db,
        () =>
          filtered
            .select([
              'pb.id',
              'pb.page_id',
              'pages.name as page_name',
              'pb.major',
              'pb.minor',
              updateStatusSql('pb', 'cur').as('update_status'),
            ])
            .orderBy('pb.page_id')
            .orderBy('pb.order_index')
            .limit(query.limit)
            .offset(query.offset)
            .execute(),
        () => filtered.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst(),
        () =>
          base
            .where(isOutdatedSql('pb', 'cur'))
            .select((eb) => eb.fn.countAll().as('count'))
            .executeTakeFirst(),
      );
      return {
        rows: rows.map((r) => ({
          id: r.id,
          page_id: r.page_id,
          page_name: r.page_name,
          version: { major: r.major, minor: r.minor },
          update_status: r.update_status as 'up_to_date',
        })),
        total: countOf(total),
        outdatedTotal: countOf(outdated),
      };
    },
  };
}
