import type { PageHistoryRepository } from '../../../modules/pages/history.js';
import type { Database } from '../../dialects/dialect.js';
import { pageWriteKit, type PagesOptions } from './page-writes.js';
import { DEFAULT_PAGES_OPTIONS } from './pages.repository.js';
import { versionReads } from './version-reads.js';
import { versionRestore } from './version-restore.js';

/** A page's history: its versions read, and a version restored as a write of the page (README.md, Versions). */
export function pageHistoryRepository(
  database: Database,
  options: PagesOptions = DEFAULT_PAGES_OPTIONS,
): PageHistoryRepository {
  return {
    ...versionReads(database),
    ...versionRestore(pageWriteKit(database, database.db, options)),
  };
}
