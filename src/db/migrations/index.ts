import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';
import * as accounts from './0001-accounts.js';
import * as blockLibrary from './0002-block-library.js';
import * as pages from './0003-pages.js';
import * as seedCatalog from './0004-seed-catalog.js';
import * as publicationClaim from './0005-publication-claim.js';
import * as pageSearch from './0006-page-search.js';
import * as starterBlocks from './0007-starter-blocks.js';
import * as idsNeverReused from './0008-ids-never-reused.js';
import * as pageOrderUnique from './0009-page-order-unique.js';
import * as rateLimits from './0010-rate-limits.js';
import * as searchVisibility from './0011-search-visibility.js';
import * as publicationError from './0012-publication-error.js';
import * as pageContentVersion from './0013-page-content-version.js';
import * as blockSearchTable from './0014-block-search-table.js';
import * as submissionFrozen from './0015-submission-frozen.js';
import * as uploads from './0016-uploads.js';
import * as siteLayoutReference from './0017-site-layout-reference.js';
import * as pageHistory from './0018-page-history.js';
import * as blockEditVersion from './0019-block-edit-version.js';
import * as jobs from './0020-jobs.js';
import * as pageSchedules from './0021-page-schedules.js';
import * as webhooks from './0022-webhooks.js';
import * as revisionMigrations from './0023-revision-migrations.js';
import * as upgradeSets from './0024-upgrade-sets.js';
import * as sqlitePageVersions from './0025-sqlite-page-versions.js';
import * as instanceFieldsFromRevision from './0026-instance-fields-from-revision.js';

export interface VersionedMigration {
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

/**
 * Ordered by name; a migration, once released, is never edited: a change is a
 * new file. Each builds the same schema on both dialects, but for what one
 * dialect keeps its own way (search indexes, page versions).
 */
export const migrations: Record<string, VersionedMigration> = {
  '0001-accounts': accounts,
  '0002-block-library': blockLibrary,
  '0003-pages': pages,
  '0004-seed-catalog': seedCatalog,
  '0005-publication-claim': publicationClaim,
  '0006-page-search': pageSearch,
  '0007-starter-blocks': starterBlocks,
  '0008-ids-never-reused': idsNeverReused,
  '0009-page-order-unique': pageOrderUnique,
  '0010-rate-limits': rateLimits,
  '0011-search-visibility': searchVisibility,
  '0012-publication-error': publicationError,
  '0013-page-content-version': pageContentVersion,
  '0014-block-search-table': blockSearchTable,
  '0015-submission-frozen': submissionFrozen,
  '0016-uploads': uploads,
  '0017-site-layout-reference': siteLayoutReference,
  '0018-page-history': pageHistory,
  '0019-block-edit-version': blockEditVersion,
  '0020-jobs': jobs,
  '0021-page-schedules': pageSchedules,
  '0022-webhooks': webhooks,
  '0023-revision-migrations': revisionMigrations,
  '0024-upgrade-sets': upgradeSets,
  '0025-sqlite-page-versions': sqlitePageVersions,
  '0026-instance-fields-from-revision': instanceFieldsFromRevision,
};
