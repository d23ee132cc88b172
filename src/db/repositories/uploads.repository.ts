import { sql } from 'kysely';
import type { UploadsRepository } from '../../modules/uploads/uploads.js';
import type { Database } from '../dialects/dialect.js';

export function uploadsRepository({ db, dialect }: Database): UploadsRepository {
  const usedBy = async (executor: typeof db, userId: number, except: string | undefined) => {
    const row = await executor
      .selectFrom('uploads')
      .select(sql<number | string>`coalesce(sum(bytes), 0)`.as('used'))
      .where('user_id', '=', userId)
      .$if(except !== undefined, (query) => query.where('key', '!=', except!))
      .executeTakeFirstOrThrow();
    return Number(row.used);
  };
  return {
    used: (userId, except) => usedBy(db, userId, except),

    record: ({ key, userId, bytes, quotaBytes, now, replaces }) =>
      db.transaction().execute(async (trx) => {
        // The user's row is the lock that orders two uploads' checks (SQLite's one writer does it by itself).
        await dialect.forUpdate(trx.selectFrom('users').select('id').where('id', '=', userId)).execute();
        const used = await usedBy(trx, userId, replaces);
        if (used + bytes > quotaBytes) return { recorded: false, used } as const;
        await trx.insertInto('uploads').values({ key, user_id: userId, bytes, created_at: now }).execute();
        if (replaces !== undefined) await trx.deleteFrom('uploads').where('key', '=', replaces).execute();
        return { recorded: true } as const;
      }),

    list: async (prefix) => {
      const rows = await db
        .selectFrom('uploads')
        .select(['key', 'bytes', 'created_at'])
        // LIKE's wildcards escaped (`_` may be in a key); SQLite's LIKE ignores case, so the prefix is checked again below.
        .where(sql<boolean>`key like ${`${prefix.replace(/[\\%_]/g, '\\$&')}%`} escape '\\'`)
        .orderBy('created_at', 'desc')
        .orderBy('key')
        .limit(1000)
        .execute();
      return rows
        .filter((row) => row.key.startsWith(prefix))
        .map((row) => ({ key: row.key, bytes: Number(row.bytes), created_at: row.created_at }));
    },

    forget: async (key) => {
      const result = await db.deleteFrom('uploads').where('key', '=', key).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
