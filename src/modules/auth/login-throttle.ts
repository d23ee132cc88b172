import type { Clock } from '../../shared/clock.js';

export interface ThrottleLimits {
  /** Failures allowed for one email within the window. */
  perEmail: number;
  /** Failures allowed from one address within the window. */
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = { perEmail: 5, perAddress: 20, windowMs: 15 * 60 * 1000 };

// Beyond this many tracked keys the oldest are dropped, so a flood of random
// emails cannot grow the process without bound.
const MAX_KEYS = 50_000;

/**
 * Counts failed logins per email and per address in a sliding window. Kept in
 * the process: with several instances each enforces its own limit (docs/auth.md).
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly limits: ThrottleLimits = DEFAULT_THROTTLE,
  ) {}

  /** Seconds to wait before another attempt is allowed, or 0. */
  retryAfter(email: string, address: string): number {
    const now = this.clock.now().getTime();
    const wait = (key: string, limit: number) => {
      const times = this.recent(key, now);
      if (times.length < limit) return 0;
      return Math.ceil((times[times.length - limit]! + this.limits.windowMs - now) / 1000);
    };
    return Math.max(wait(`email:${email}`, this.limits.perEmail), wait(`addr:${address}`, this.limits.perAddress));
  }

  recordFailure(email: string, address: string): void {
    const now = this.clock.now().getTime();
    for (const key of [`email:${email}`, `addr:${address}`]) {
      const times = this.recent(key, now);
      times.push(now);
      this.failures.delete(key);
      this.failures.set(key, times);
    }
    while (this.failures.size > MAX_KEYS) {
      const oldest = this.failures.keys().next().value as string;
      this.failures.delete(oldest);
    }
  }

  recordSuccess(email: string): void {
    this.failures.delete(`email:${email}`);
  }

  private recent(key: string, now: number): number[] {
    const times = (this.failures.get(key) ?? []).filter((t) => now - t < this.limits.windowMs);
    if (times.length === 0) this.failures.delete(key);
    return times;
  }
}
