import type { Kysely } from 'kysely';
import type { PagesRepository } from '../../../modules/pages/pages.js';
import type { Database } from '../../dialects/dialect.js';
import type { DB } from '../../schema.js';
import { instanceWrites } from './instance-writes.js';
import { pageReads } from './page-reads.js';
import { pageViewReader } from './page-view.js';
import { pageWriteKit, pageWrites, type PagesOptions } from './page-writes.js';

/** How a page is read and written: see README.md in this folder. */
export function pagesRepository(database: Database, options: PagesOptions = DEFAULT_PAGES_OPTIONS): PagesRepository {
  return bind(database, database.db, options);
}

/** PAGE_HISTORY_LIMIT's default: the versions a page keeps, its published ones besides. */
export const DEFAULT_PAGES_OPTIONS: PagesOptions = { historyLimit: 100 };

/** The repository on a transaction already open (several pages' writes in one: an upgrade set). */
export const pagesRepositoryOn = (database: Database, trx: Kysely<DB>, options: PagesOptions): PagesRepository =>
  bind(database, trx, options);

/** The repository over `db`, which is the database or a transaction already open. */
function bind(database: Database, db: Kysely<DB>, options: PagesOptions): PagesRepository {
  const kit = pageWriteKit(database, db, options);
  return {
    ...pageReads(database, db),
    view: pageViewReader(database, db),
    ...pageWrites(kit),
    ...instanceWrites(kit),
    withPageLock: (pageId, work, expected) =>
      kit.lockedAt(pageId, expected, (trx) => work(bind(database, trx, options))),
  };
}
