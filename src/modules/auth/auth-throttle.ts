import { RateLimiterRes } from 'rate-limiter-flexible';
import { sha256Hex } from '../../shared/secrets.js';
import type { RateLimitStore } from './auth.js';
import { StoreRateLimiter } from './store-rate-limiter.js';

export interface ThrottleLimits {
  /** Failed logins of one account from one address before the next attempt must wait. */
  freeFailures: number;
  /** The longest wait: the delay doubles with each failure past the free ones, up to this. */
  maxDelaySeconds: number;
  /** How long failures are remembered. */
  failureWindowSeconds: number;
  /** Registrations from one address within the window. */
  registrationsPerAddress: number;
  registrationWindowSeconds: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = {
  freeFailures: 5,
  maxDelaySeconds: 15 * 60,
  failureWindowSeconds: 60 * 60,
  registrationsPerAddress: 10,
  registrationWindowSeconds: 60 * 60,
};

/**
 * Failed logins slow down the one who fails, not the account: they are counted
 * per (account, client address), so that no one can lock another person out,
 * nor every account behind one proxy. Past the free failures each further one
 * must wait twice as long as the last (1 s, 2 s, 4 s … up to the maximum); a
 * successful login forgets them. Registrations are limited per address. The
 * counts live in the database (shared by every instance).
 */
export class AuthThrottle {
  private readonly failures: StoreRateLimiter;
  private readonly waits: StoreRateLimiter;
  private readonly registrations: StoreRateLimiter;

  constructor(
    store: RateLimitStore,
    private readonly limits: ThrottleLimits = DEFAULT_THROTTLE,
  ) {
    this.failures = new StoreRateLimiter(store, {
      keyPrefix: 'login_failures',
      points: limits.freeFailures,
      duration: limits.failureWindowSeconds,
    });
    // Blocked (`block`) for the current delay; never consumed otherwise.
    this.waits = new StoreRateLimiter(store, { keyPrefix: 'login_wait', points: 1, duration: limits.maxDelaySeconds });
    this.registrations = new StoreRateLimiter(store, {
      keyPrefix: 'register',
      points: limits.registrationsPerAddress,
      duration: limits.registrationWindowSeconds,
    });
  }

  /** Seconds this (account, address) must still wait before another attempt, or 0. */
  async loginWait(email: string, address: string): Promise<number> {
    const wait = await this.waits.get(pair(email, address));
    return wait && wait.consumedPoints > 1 ? seconds(wait) : 0;
  }

  async loginFailed(email: string, address: string): Promise<void> {
    const key = pair(email, address);
    const { consumedPoints } = await this.failures.penalty(key, 1);
    const beyond = consumedPoints - this.limits.freeFailures;
    if (beyond >= 0) await this.waits.block(key, Math.min(2 ** beyond, this.limits.maxDelaySeconds));
  }

  async loginSucceeded(email: string, address: string): Promise<void> {
    const key = pair(email, address);
    await Promise.all([this.failures.delete(key), this.waits.delete(key)]);
  }

  /** Counts one registration from the address: the seconds to wait when over the limit, else 0. */
  async registration(address: string): Promise<number> {
    try {
      await this.registrations.consume(sha256Hex(address));
      return 0;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return seconds(rejection);
      throw rejection;
    }
  }
}

// Hashed: the table holds no email address nor client address in clear.
const pair = (email: string, address: string) => sha256Hex(`${email}\n${address}`);

const seconds = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));
