import { sql } from 'kysely';
import { markVersionPublished } from './version-writes.js';
import type { PublicationRepository } from '../../../modules/publishing/publishing.js';
import { siteNotFound } from '../../../modules/sites/sites.js';
import type { Database } from '../../dialects/dialect.js';
import { invalidReference, isGone } from '../references.js';
import { bool } from '../rows.js';
import { PUBLICATION_COLUMNS } from './columns.js';

/** A publication that went through: the claim is released and the last failure forgotten. */
const succeeded = { publication_claimed_at: null, publication_error: null, publication_error_at: null } as const;

export function publicationRepository({ db, dialect }: Database): PublicationRepository {
  const record = async (siteId: number) => {
    const row = await db
      .selectFrom('site_providers')
      .select(['type', 'base_url', 'updated_at'])
      .where('site_id', '=', siteId)
      .executeTakeFirst();
    return {
      type: row?.type ?? null,
      base_url: row?.base_url ?? null,
      token_set: Boolean(row),
      updated_at: row?.updated_at ?? null,
    };
  };

  return {
    async status(pageId) {
      const row = await db.selectFrom('pages').select(PUBLICATION_COLUMNS).where('id', '=', pageId).executeTakeFirst();
      return (
        row && {
          is_published: bool(row.is_published),
          external_id: row.external_id,
          external_slug: row.external_slug,
          published_at: row.published_at,
          updated_at: row.publication_updated_at,
          last_error: row.publication_error,
          last_error_at: row.publication_error_at,
        }
      );
    },
    async versionState(pageId) {
      const row = await db
        .selectFrom('pages')
        .select((eb) => [
          'pages.version',
          eb
            .selectFrom('page_versions as v')
            .select((v) => v.fn.max('v.number').as('n'))
            .whereRef('v.page_id', '=', 'pages.id')
            .where('v.published', '=', sql.lit(true))
            .as('published_version'),
        ])
        .where('pages.id', '=', pageId)
        .executeTakeFirst();
      return (
        row && {
          version: Number(row.version),
          published_version: row.published_version === null ? null : Number(row.published_version),
        }
      );
    },
    async claim({ pageId, expectPublished, now, staleBefore }) {
      // One conditional UPDATE: of two racing attempts exactly one changes the row.
      const result = await db
        .updateTable('pages')
        .set({ publication_claimed_at: now })
        .where('id', '=', pageId)
        .where('is_published', '=', expectPublished)
        .where((eb) =>
          eb.or([eb('publication_claimed_at', 'is', null), eb('publication_claimed_at', '<', staleBefore)]),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async release(pageId) {
      await db.updateTable('pages').set({ publication_claimed_at: null }).where('id', '=', pageId).execute();
    },
    async markPublished({ pageId, version, externalId, externalSlug, now }) {
      await db.transaction().execute(async (trx) => {
        await markVersionPublished(trx, pageId, version);
        await trx
          .updateTable('pages')
          .set({
            is_published: true,
            external_id: externalId,
            external_slug: externalSlug,
            published_at: now,
            publication_updated_at: now,
            ...succeeded,
          })
          .where('id', '=', pageId)
          .execute();
      });
    },
    async markUpdated({ pageId, version, externalSlug, now }) {
      await db.transaction().execute(async (trx) => {
        await markVersionPublished(trx, pageId, version);
        await trx
          .updateTable('pages')
          .set({
            external_slug: externalSlug,
            publication_updated_at: now,
            ...succeeded,
          })
          .where('id', '=', pageId)
          .execute();
      });
    },
    async markFailed({ pageId, message, now }) {
      await db
        .updateTable('pages')
        .set({ publication_error: message, publication_error_at: now, publication_claimed_at: null })
        .where('id', '=', pageId)
        .execute();
    },
    async provider(siteId) {
      return db
        .selectFrom('site_providers')
        .select(['type', 'base_url', 'token'])
        .where('site_id', '=', siteId)
        .executeTakeFirst();
    },
    providerRecord: record,
    async saveProvider({ siteId, type, baseUrl, token, now }) {
      // The site deleted since the service looked: the foreign key refuses the row.
      await invalidReference(
        dialect,
        () =>
          db
            .insertInto('site_providers')
            .values({ site_id: siteId, type, base_url: baseUrl, token, updated_at: now })
            .onConflict((oc) => oc.column('site_id').doUpdateSet({ type, base_url: baseUrl, token, updated_at: now }))
            .execute(),
        async () => ((await isGone(db, 'sites', siteId)) ? siteNotFound(siteId) : undefined),
      );
      return record(siteId);
    },
  };
}
