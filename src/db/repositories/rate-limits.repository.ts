import { sql } from 'kysely';
import type { RateLimitStore } from '../../modules/auth/auth.js';
import type { Database } from '../dialects/dialect.js';

export function rateLimitsRepository({ db }: Database): RateLimitStore {
  return {
    async add(key, points, msDuration, reset, now) {
      const expire = now + msDuration;
      // One statement: two instances counting the same key at once both count.
      const restart = sql<boolean>`(${reset ? sql`1 = 1` : sql`rate_limits.expire <= ${now}`})`;
      const row = await db
        .insertInto('rate_limits')
        .values({ key, points, expire })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            points: sql<number>`case when ${restart} then excluded.points else rate_limits.points + excluded.points end`,
            expire: sql<number>`case when ${restart} then excluded.expire else rate_limits.expire end`,
          }),
        )
        .returning(['points', 'expire'])
        .executeTakeFirstOrThrow();
      // Expired counters go now and then, so that a flood of keys does not stay.
      if (Math.random() < 0.01) await db.deleteFrom('rate_limits').where('expire', '<=', now).execute();
      return { points: Number(row.points), expire: Number(row.expire) };
    },

    async get(key, now) {
      const row = await db
        .selectFrom('rate_limits')
        .select(['points', 'expire'])
        .where('key', '=', key)
        .where('expire', '>', now)
        .executeTakeFirst();
      return row && { points: Number(row.points), expire: Number(row.expire) };
    },

    async delete(key) {
      const { numDeletedRows } = await db.deleteFrom('rate_limits').where('key', '=', key).executeTakeFirst();
      return numDeletedRows > 0n;
    },
  };
}
