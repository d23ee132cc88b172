import type { Kysely } from 'kysely';
import { conflict, fieldError, notFound } from '../../../shared/errors.js';
import {
  blocksNotFound,
  folderNotInSite,
  missingBlock,
  type NewInstance,
  type PageChange,
  type PagesRepository,
} from '../../../modules/pages/pages.js';
import { siteNotFound } from '../../../modules/sites/sites.js';
import type { Database } from '../../dialects/dialect.js';
import type { DB } from '../../schema.js';
import { hasOutdatedSql, instanceRow, PAGE_COLUMNS, pageBlocksReader, toPage, writeOrder } from './page-reads.js';
import { prepared } from '../../prepared.js';
import { instanceInserts, type LibraryRow } from './instance-inserts.js';
import { insertPagePostgres } from './page-insert.postgres.js';
import { pageAnswers } from './page-answers.js';
import { pageViewReader } from './page-view.js';
import { countOf, toJson } from '../rows.js';
import { retrying } from '../../retry.js';
import { readAll } from '../../read-all.js';
import { invalidReference, isGone, missingIds } from '../references.js';

/** Hyphens split slug words, so that `spring-sale` is found by "sale". */
const searchDocument = (fields: PageChange) => ({
  name: fields.name,
  slug: (fields.slug ?? '').replace(/-/g, ' '),
  meta: [fields.meta_title, fields.meta_description, fields.meta_keywords].filter(Boolean).join(' '),
});

const slugTaken = (slug: string | null) =>
  conflict(`The slug "${slug}" is already taken in this site.`, [
    { path: 'slug', message: 'This slug is already taken in this site.' },
  ]);

export function pagesRepository(database: Database): PagesRepository {
  return bind(database, database.db);
}

/** The repository over `db`, which is the database or a transaction already open. */
function bind(database: Database, db: Kysely<DB>): PagesRepository {
  const { dialect, readNow } = database;
  const inTransaction = <T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T> =>
    db.isTransaction ? work(db) : db.transaction().execute(work);

  /**
   * Every change to a page's instances runs here: one transaction that first
   * takes the page's row lock, so that two never interleave (their order
   * writes deadlocked on PostgreSQL and left duplicate places), tried again
   * when the database still gives it up. Inside, the instances are read anew.
   */
  const locked = <T>(pageId: number, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> => {
    const run = async (trx: Kysely<DB>) => {
      const page = await dialect
        .forUpdate(trx.selectFrom('pages').select('id').where('id', '=', pageId))
        .executeTakeFirst();
      if (!page) throw notFound(`Page ${pageId} not found.`);
      return work(trx);
    };
    return db.isTransaction ? run(db) : retrying(dialect, () => db.transaction().execute(run));
  };

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

  /**
   * A write refused by a foreign key: its site, folder or a block was deleted since the
   * service looked. Named as the service names it when it was gone already, in the
   * service's order (site, folder, blocks), each instance's block at `pathOf(i)`.
   */
  const referencesGone = async (
    fields: PageChange | undefined,
    instances: NewInstance[],
    pathOf: (i: number) => string,
    pageId?: number,
  ) => {
    if (fields && (await isGone(db, 'sites', fields.site_id))) return siteNotFound(fields.site_id!, 'site_id');
    if (fields && (await isGone(db, 'folders', fields.folder_id))) {
      // A folder sent alone goes in the page's site, as the service checked it.
      const siteId =
        fields.site_id !== undefined || pageId === undefined
          ? (fields.site_id ?? null)
          : ((await db.selectFrom('pages').select('site_id').where('id', '=', pageId).executeTakeFirst())?.site_id ??
            null);
      return folderNotInSite(fields.folder_id!, siteId);
    }
    // A deleted block takes its revisions with it: an instance whose revision is gone lost its block.
    const gone = await missingIds(
      db,
      'block_revisions',
      instances.map((i) => i.revision_id),
    );
    const errors = instances.flatMap((instance, i) =>
      gone.has(instance.revision_id) ? [missingBlock(pathOf(i), instance.block_id)] : [],
    );
    return errors.length ? blocksNotFound(errors) : undefined;
  };
  const inBody = (i: number) => `blocks[${i}]`;

  const missing = (pageBlockId: number) => notFound(`Block instance ${pageBlockId} is not on this page.`);

  // A slug race is settled by the unique index (site_id, slug), never by a check first.
  const guardSlug = async <T>(slug: string | null, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (dialect.isUniqueViolation(error)) throw slugTaken(slug);
      throw error;
    }
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

  const { insertRows, libraryOf } = instanceInserts(database);
  const answers = pageAnswers(database);
  const libraryFor = (trx: Kysely<DB>, instances: NewInstance[]) => {
    const ids = [...new Set(instances.map((i) => i.block_id))];
    return ids.length ? libraryOf(trx, ids) : Promise.resolve(new Map<number, LibraryRow>());
  };

  // PostgreSQL: the page, its instances and their blocks in one statement (one round trip).
  const insertPageInOneStatement = async (input: Parameters<PagesRepository['create']>[0]) => {
    const { id, instances } = await insertPagePostgres(db, { ...input, search: searchDocument(input.fields) });
    // A row without its block's name: the block went during the write (answers.written says so).
    const library = new Map(
      instances.flatMap((r) => (r.name === null ? [] : [[r.block_id, { ...r, id: r.block_id }] as const])),
    );
    return { id, rows: instances, library };
  };

  const blocks = pageBlocksReader(db, readNow);
  const findPage = prepared(
    db,
    1,
    (id: number) =>
      db
        .selectFrom('pages')
        .select([...PAGE_COLUMNS, hasOutdatedSql.as('has_outdated_blocks')])
        .where('pages.id', '=', id),
    readNow,
  );
  const view = pageViewReader(database, db);

  const pageQuery = (ownerId: number) => db.selectFrom('pages').where('pages.owner_id', '=', ownerId);

  const repo: PagesRepository = {
    async find(id) {
      const [row] = await findPage(id);
      return row && toPage(row);
    },

    view,

    async list(query) {
      let base = pageQuery(query.ownerId);
      if (query.hasOutdated) base = base.where(hasOutdatedSql);
      if (query.siteId !== undefined) base = base.where('pages.site_id', '=', query.siteId);
      const [rows, total] = await readAll(
        db,
        () =>
          base
            .select([...PAGE_COLUMNS, hasOutdatedSql.as('has_outdated_blocks')])
            .orderBy('pages.id')
            .limit(query.limit)
            .offset(query.offset)
            .execute(),
        () => base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst(),
      );
      return { rows: rows.map(toPage), total: countOf(total) };
    },

    async search(query) {
      const base = db
        .selectFrom(dialect.pageSearch.matches(query.terms).as('m'))
        .innerJoin('pages', 'pages.id', 'm.page_id')
        .where('pages.owner_id', '=', query.ownerId);
      const [rows, total] = await readAll(
        db,
        () =>
          base
            .select([...PAGE_COLUMNS, hasOutdatedSql.as('has_outdated_blocks')])
            .orderBy('m.score')
            .orderBy('pages.id')
            .limit(query.limit)
            .offset(query.offset)
            .execute(),
        () => base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst(),
      );
      return { rows: rows.map(toPage), total: countOf(total) };
    },

    async create(input) {
      // The new page's row, as written and as answered.
      const row = {
        owner_id: input.ownerId,
        kind: input.kind,
        ...input.fields,
        is_published: false,
        created_at: input.now,
        updated_at: input.now,
      };
      const write = () =>
        guardSlug(input.fields.slug, async () => {
          const { id, rows, library } = dialect.writesInWith
            ? await insertPageInOneStatement(input)
            : await inTransaction(async (trx) => {
                const search = dialect.pageSearch.created(searchDocument(input.fields));
                const { id } = await trx
                  .insertInto('pages')
                  .values({ ...row, ...search.columns })
                  .returning('id')
                  .executeTakeFirstOrThrow();
                const rows = await insertRows(trx, id, input.instances, 0, input.now);
                await search.add(trx, id);
                return { id, rows, library: await libraryFor(trx, input.instances) };
              });
          const blocks = answers.written(input.instances, rows, library);
          return answers.answer({ id, ...row }, blocks);
        });
      return invalidReference(dialect, write, () => referencesGone(input.fields, input.instances, inBody));
    },

    async update(input) {
      const write = () =>
        guardSlug(input.fields.slug, () =>
          locked(input.id, async (trx) => {
            const head = await answers.update(trx, input.id, input.fields, input.now);
            await dialect.pageSearch.index(trx, input.id, searchDocument(input.fields));
            if (!input.instances) return answers.answer(head, await answers.instances(trx, input.id));
            await trx.deleteFrom('page_blocks').where('page_id', '=', input.id).execute();
            const rows = await insertRows(trx, input.id, input.instances, 0, input.now);
            return answers.answer(head, answers.written(input.instances, rows, await libraryFor(trx, input.instances)));
          }),
        );
      return invalidReference(dialect, write, () =>
        referencesGone(input.fields, input.instances ?? [], inBody, input.id),
      );
    },

    async delete(id) {
      await db.deleteFrom('pages').where('id', '=', id).execute();
    },

    blocks: (pageId) => blocks.all(pageId),

    findBlock: (pageId, pageBlockId) => blocks.one(pageId, pageBlockId),

    async insertBlocks({ pageId, position: asked, instances, now }) {
      const write = () =>
        locked(pageId, async (trx) => {
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
          const byId = new Map([...existing, ...added].map((b) => [b.id, b]));
          return answers.answer(
            head,
            next.map((id, i) => ({ ...byId.get(id)!, order_index: i })),
          );
        });
      return invalidReference(dialect, write, () => referencesGone(undefined, instances, inBody));
    },

    async moveBlock({ pageId, pageBlockId, position, parentId, now }) {
      await locked(pageId, async (trx) => {
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
        await trx.updateTable('pages').set({ updated_at: now }).where('id', '=', pageId).execute();
      });
    },

    async deleteBlock({ pageId, pageBlockId, now }) {
      await locked(pageId, async (trx) => {
        // Children of a layout instance go with it (cascade).
        const { numDeletedRows } = await trx
          .deleteFrom('page_blocks')
          .where('id', '=', pageBlockId)
          .where('page_id', '=', pageId)
          .executeTakeFirst();
        if (!numDeletedRows) throw missing(pageBlockId);
        await writeOrder(trx, dialect, pageId, await currentOrder(trx, pageId), now);
        await trx.updateTable('pages').set({ updated_at: now }).where('id', '=', pageId).execute();
      });
    },

    async updateBlock({ pageId, pageBlockId, values, bindings, now }) {
      await locked(pageId, async (trx) => {
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
        await trx.updateTable('pages').set({ updated_at: now }).where('id', '=', pageId).execute();
      });
    },

    async repin({ pageId, changes, now }) {
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
        if (changes.length) await trx.updateTable('pages').set({ updated_at: now }).where('id', '=', pageId).execute();
      });
    },

    async replaceBlock({ pageId, pageBlockId, instance, now }) {
      const write = () =>
        locked(pageId, async (trx) => {
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
          await trx.updateTable('pages').set({ updated_at: now }).where('id', '=', pageId).execute();
          return id!;
        });
      // The body is the one instance: its block is at `block_id`.
      return invalidReference(dialect, write, () => referencesGone(undefined, [instance], () => ''));
    },

    async withPageLock(pageId, work) {
      return locked(pageId, (trx) => work(bind(database, trx)));
    },
  };
  return repo;
}
