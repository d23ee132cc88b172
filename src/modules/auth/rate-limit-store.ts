/** A counter per key that lives for a while: the store of the auth throttle, shared by every instance. */
export interface RateLimitStore {
  /**
   * Adds `points` to the key's count and answers the new count and its expiry
   * (epoch ms). A counter that has expired, or any with `reset`, starts afresh
   * with `points`, expiring `msDuration` after `now`.
   */
  add(
    key: string,
    points: number,
    msDuration: number,
    reset: boolean,
    now: number,
  ): Promise<{ points: number; expire: number }>;
  /** The live counter of the key, if any. */
  get(key: string, now: number): Promise<{ points: number; expire: number } | undefined>;
  delete(key: string): Promise<boolean>;
}
