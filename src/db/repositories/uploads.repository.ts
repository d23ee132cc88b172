import { sql } from 'kysely';
import type { UploadsRepository } from '../../modules/uploads/uploads.js';
import type { Database } from '../dialects/dialect.js';

export function uploadsRepository({ db, dialect }: Database): UploadsRepository {
  const usedBy = async (executor: typeof db, userId: number) => {
    const row = await executor
      .selectFrom('uploads')
      .select(sql<number | string>`coalesce(sum(bytes), 0)`.as('used'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.used);
  };
  return {
    used: (userId) => usedBy(db, userId),

    record: ({ key, userId, bytes, quotaBytes, now }) =>
      db.transaction().execute(async (trx) => {
        // The user's row is the lock that orders two uploads' checks (SQLite's one writer does it by itself).
        await dialect.forUpdate(trx.selectFrom('users').select('id').where('id', '=', userId)).execute();
        const used = await usedBy(trx, userId);
        if (used + bytes > quotaBytes) return { recorded: false, used } as const;
        await trx.insertInto('uploads').values({ key, user_id: userId, bytes, created_at: now }).execute();
        return { recorded: true } as const;
      }),

    async forget(key) {
      await db.deleteFrom('uploads').where('key', '=', key).execute();
    },
  };
}
