import type { Database } from '../dialects/dialect.js';
import type { ApiKeysRepository } from '../../modules/api-keys/api-keys.js';
import { prepared } from '../prepared.js';
import { bool, countOf } from './rows.js';
import { batchedKeyLookups, type OwnerRow } from './key-lookups.postgres.js';

const KEY_COLUMNS = ['id', 'title', 'prefix', 'created_at', 'last_used_at'] as const;

export function apiKeysRepository({ db, dialect, readNow }: Database): ApiKeysRepository {
  const ownerQuery = (keyHash: string) =>
    db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .select([
        'api_keys.id as keyId',
        'api_keys.last_used_at',
        'users.id as userId',
        'users.is_admin',
        'users.is_blocked',
      ])
      .where('api_keys.key_hash', '=', keyHash);
  // Every API request asks this; through the unique index on key_hash, never a cache.
  // Past Kysely's execution chain where the database allows (readNow).
  const ownerByHash = prepared(db, 1, ownerQuery, readNow, 'first');
  // A page read also asks for the page's version, in the same statement (one round trip on PostgreSQL).
  const versions = dialect.pageVersions;
  const ownerAndPage = prepared(
    db,
    2,
    (keyHash: string, pageId: number) => ownerQuery(keyHash).select(versions.of(pageId).as('page_version')),
    readNow,
    'first',
  );
  const alone = async (keyHash: string, pageId: number | undefined): Promise<OwnerRow | undefined> => {
    const [row] = pageId !== undefined ? await ownerAndPage(keyHash, pageId) : await ownerByHash(keyHash);
    return row;
  };
  const lookup = dialect.roundTrips && readNow ? batchedKeyLookups(readNow, alone) : alone;
  return {
    async create(input) {
      return db
        .insertInto('api_keys')
        .values({
          user_id: input.userId,
          title: input.title,
          prefix: input.prefix,
          key_hash: input.keyHash,
          created_at: input.createdAt,
          last_used_at: null,
        })
        .returning(KEY_COLUMNS)
        .executeTakeFirstOrThrow();
    },
    async list(userId, page) {
      const rows = await db
        .selectFrom('api_keys')
        .select(KEY_COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      const total = await db
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return { rows, total: countOf(total) };
    },
    async delete(userId, id) {
      const result = await db
        .deleteFrom('api_keys')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async findOwnerByHash(keyHash, pageId) {
      const row = await lookup(keyHash, pageId);
      return (
        row && {
          keyId: row.keyId,
          userId: row.userId,
          isAdmin: bool(row.is_admin),
          isBlocked: bool(row.is_blocked),
          lastUsedAt: row.last_used_at,
          pageVersion: 'page_version' in row ? row.page_version : undefined,
        }
      );
    },
    async touch(id, now, staleBefore) {
      await db
        .updateTable('api_keys')
        .set({ last_used_at: now })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
        .execute();
    },
  };
}
