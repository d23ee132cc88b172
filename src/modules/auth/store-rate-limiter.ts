import { RateLimiterRes, type IRateLimiterStoreOptions } from 'rate-limiter-flexible';
import RateLimiterStoreAbstract from 'rate-limiter-flexible/lib/RateLimiterStoreAbstract.js';
import type { RateLimitStore } from './auth.js';

type Row = { points: number; expire: number };

/**
 * rate-limiter-flexible's limiter (points, windows, `block`, `penalty`) over
 * our own store, the database: its counting rules, our persistence, so that
 * several instances of the service share one count.
 */
export class StoreRateLimiter extends RateLimiterStoreAbstract {
  private readonly store: RateLimitStore;

  constructor(store: RateLimitStore, options: Omit<IRateLimiterStoreOptions, 'storeClient'>) {
    super({ ...options, storeClient: store });
    this.store = store;
  }

  _upsert(key: string, points: number, msDuration: number, forceExpire = false): Promise<Row> {
    return this.store.add(key, points, msDuration, forceExpire, Date.now());
  }

  async _get(key: string): Promise<Row | null> {
    return (await this.store.get(key, Date.now())) ?? null;
  }

  _delete(key: string): Promise<boolean> {
    return this.store.delete(key);
  }

  _getRateLimiterRes(_key: string, changedPoints: number, row: Row): RateLimiterRes {
    const consumed = row.points;
    return new RateLimiterRes(
      Math.max(this.points - consumed, 0),
      Math.max(row.expire - Date.now(), 0),
      consumed,
      changedPoints === consumed,
    );
  }
}
