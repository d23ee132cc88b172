import type { Kysely } from 'kysely';
import { conflict, notFound, versionConflict, versionHolds, type ExpectedVersions } from '../../../shared/errors.js';
import {
  type Author,
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
import { retrying } from '../../retry.js';
import { invalidReference, isGone, missingIds } from '../references.js';
import { instanceInserts, type LibraryRow } from './instance-inserts.js';
import { insertPagePostgres } from './page-insert.postgres.js';
import { pageAnswers } from './page-answers.js';
import { authorColumns, versionWrites } from './version-writes.js';
import { summarize } from './version-summary.js';

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

/** What every write of a page and of its instances shares, over `db` (the database or a transaction already open). */
export function pageWriteKit(database: Database, db: Kysely<DB>, options: PagesOptions) {
  const { dialect } = database;
  const inTransaction = <T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T> =>
    db.isTransaction ? work(db) : db.transaction().execute(work);

  /**
   * Every change to a page's instances runs here: one transaction that first
   * takes the page's row lock, so that two never interleave (their order
   * writes deadlocked on PostgreSQL and left duplicate places), tried again
   * when the database still gives it up. Inside, the instances are read anew.
   */
  /**
   * A write told which versions to expect (`If-Match`) goes on only while the
   * page is at one of them: checked here, under the lock the write holds to
   * its end, so of two writes expecting one version exactly one goes through.
   */
  const lockedAt = <T>(
    pageId: number,
    expected: ExpectedVersions,
    work: (trx: Kysely<DB>) => Promise<T>,
  ): Promise<T> => {
    const run = async (trx: Kysely<DB>) => {
      const page = await dialect
        .forUpdate(trx.selectFrom('pages').select(['id', 'version']).where('id', '=', pageId))
        .executeTakeFirst();
      if (!page) throw notFound(`Page ${pageId} not found.`);
      if (!versionHolds(expected, page.version)) throw versionConflict(`Page ${pageId}`, page.version);
      return work(trx);
    };
    return db.isTransaction ? run(db) : retrying(dialect, () => db.transaction().execute(run));
  };
  /** `lockedAt` without an expected version (a step of a write that checked it already, such as a re-pin). */
  const locked = <T>(pageId: number, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> =>
    lockedAt(pageId, undefined, work);

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

  const { insertRows, libraryOf } = instanceInserts(database);
  const answers = pageAnswers(database);
  const versions = versionWrites(database, options);

  /**
   * Moves the page to its next version (and its `updated_at`, when given) and
   * records that version: the end of every write that does not answer the
   * page's row.
   */
  const versioned = async (trx: Kysely<DB>, pageId: number, by: Author, now: string, touch = true) => {
    const { version } = await trx
      .updateTable('pages')
      .set((eb) => ({ version: eb('version', '+', 1), ...(touch && { updated_at: now }) }))
      .where('id', '=', pageId)
      .returning('version')
      .executeTakeFirstOrThrow();
    await versions.record(trx, { pageId, number: version, by, now });
  };
  const libraryFor = (trx: Kysely<DB>, instances: NewInstance[]) => {
    const ids = [...new Set(instances.map((i) => i.block_id))];
    return ids.length ? libraryOf(trx, ids) : Promise.resolve(new Map<number, LibraryRow>());
  };

  return {
    db,
    dialect,
    inTransaction,
    locked,
    lockedAt,
    referencesGone,
    inBody,
    missing,
    guardSlug,
    insertRows,
    libraryFor,
    answers,
    versions,
    versioned,
  };
}

/** What the repository is built with: the most versions a page keeps (PAGE_HISTORY_LIMIT). */
export interface PagesOptions {
  historyLimit: number;
}

export type PageWriteKit = ReturnType<typeof pageWriteKit>;

/** The writes of a page itself: a new page with its instances, a page's fields (and all its instances), its deletion. */
export function pageWrites(kit: PageWriteKit): Pick<PagesRepository, 'create' | 'update' | 'delete'> {
  const {
    db,
    dialect,
    inTransaction,
    lockedAt,
    referencesGone,
    inBody,
    guardSlug,
    insertRows,
    libraryFor,
    answers,
    versions,
  } = kit;

  // PostgreSQL: the page, its instances and their blocks in one statement (one round trip).
  const insertPageInOneStatement = async (input: Parameters<PagesRepository['create']>[0]) => {
    const { id, instances } = await insertPagePostgres(db, {
      ...input,
      search: searchDocument(input.fields),
      author: authorColumns(input.by),
      summary: summarize(
        undefined,
        input.instances.map((_, i) => [i, i]),
        false,
      ),
    });
    // A row without its block's name: the block went during the write (answers.written says so).
    const library = new Map(
      instances.flatMap((r) => (r.name === null ? [] : [[r.block_id, { ...r, id: r.block_id }] as const])),
    );
    return { id, rows: instances, library };
  };

  return {
    async create(input) {
      // The new page's row, as written and as answered.
      const row = {
        owner_id: input.ownerId,
        kind: input.kind,
        ...input.fields,
        is_published: false,
        created_at: input.now,
        updated_at: input.now,
        version: 1,
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
                await versions.first(trx, {
                  pageId: id,
                  instanceIds: rows.map((r) => r.id),
                  fields: input.fields,
                  by: input.by,
                  now: input.now,
                });
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
          lockedAt(input.id, input.expected, async (trx) => {
            const head = await answers.update(trx, input.id, input.fields, input.now);
            await dialect.pageSearch.index(trx, input.id, searchDocument(input.fields));
            const record = () =>
              versions.record(trx, { pageId: input.id, number: head.version, by: input.by, now: input.now });
            if (!input.instances) {
              await record();
              return answers.answer(head, await answers.instances(trx, input.id));
            }
            await trx.deleteFrom('page_blocks').where('page_id', '=', input.id).execute();
            const rows = await insertRows(trx, input.id, input.instances, 0, input.now);
            await record();
            return answers.answer(head, answers.written(input.instances, rows, await libraryFor(trx, input.instances)));
          }),
        );
      return invalidReference(dialect, write, () =>
        referencesGone(input.fields, input.instances ?? [], inBody, input.id),
      );
    },

    async delete(id, expected) {
      // An expected version is checked by the delete itself: nothing can move it in between.
      const statement = db.deleteFrom('pages').where('id', '=', id);
      if (!expected) return void (await statement.execute());
      const { numDeletedRows } = await statement
        .where('version', 'in', expected.length ? expected : [0])
        .executeTakeFirst();
      if (Number(numDeletedRows) > 0) return;
      const standing = await db.selectFrom('pages').select('version').where('id', '=', id).executeTakeFirst();
      if (standing) throw versionConflict(`Page ${id}`, standing.version);
    },
  };
}
