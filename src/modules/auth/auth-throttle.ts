import ipaddr from 'ipaddr.js';
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
  /**
   * Login attempts from one address, over every account, within the window:
   * past them the address waits for the window's end. Successes give theirs back.
   */
  loginAttemptsPerAddress: number;
  loginAddressWindowSeconds: number;
  /** Registrations from one address within the window. */
  registrationsPerAddress: number;
  registrationWindowSeconds: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = {
  freeFailures: 5,
  maxDelaySeconds: 15 * 60,
  failureWindowSeconds: 60 * 60,
  loginAttemptsPerAddress: 30,
  loginAddressWindowSeconds: 60,
  registrationsPerAddress: 10,
  registrationWindowSeconds: 60 * 60,
};

/**
 * Failed logins slow down the one who fails, not the account: they are counted
 * per (account, client address), so that no one can lock another person out,
 * nor every account behind one proxy. Past the free failures each further one
 * must wait twice as long as the last (1 s, 2 s, 4 s … up to the maximum); a
 * successful login forgets them.
 *
 * Password spraying (one address, one guess, many accounts) meets a softer
 * limit per address: so many unsuccessful attempts a minute over every
 * account, then 429 until the minute ends. It is checked before the password
 * is (scrypt, ~50 ms of a thread), and once over it an instance refuses the
 * address from memory, so a flood costs other users' logins almost nothing. It never touches
 * another address, so an account's owner elsewhere signs in as before.
 *
 * Registrations are limited per address. An IPv6 client is counted by its
 * /64 for both (one host or household holds a whole /64). The counts live in
 * the database (shared by every instance).
 */
export class AuthThrottle {
  private readonly failures: StoreRateLimiter;
  private readonly waits: StoreRateLimiter;
  private readonly registrations: StoreRateLimiter;
  private readonly attempts: StoreRateLimiter;

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
    this.attempts = new StoreRateLimiter(store, {
      keyPrefix: 'login_address',
      points: limits.loginAttemptsPerAddress,
      duration: limits.loginAddressWindowSeconds,
      // Once over, this instance answers the address's next attempts from memory until the window ends:
      // a flood's 429s then cost no database round trip (other instances learn it at their first).
      inMemoryBlockOnConsumed: limits.loginAttemptsPerAddress + 1,
    });
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

  /** Counts one login attempt from the address, whatever the account: the seconds to wait when over the limit, else 0. */
  async loginAttempt(address: string): Promise<number> {
    return consumed(this.attempts, network(address));
  }

  async loginFailed(email: string, address: string): Promise<void> {
    const key = pair(email, address);
    const { consumedPoints } = await this.failures.penalty(key, 1);
    const beyond = consumedPoints - this.limits.freeFailures;
    if (beyond >= 0) await this.waits.block(key, Math.min(2 ** beyond, this.limits.maxDelaySeconds));
  }

  async loginSucceeded(email: string, address: string): Promise<void> {
    const key = pair(email, address);
    // The attempt that succeeded is given back: signing in often from one address is no spraying.
    await Promise.all([this.failures.delete(key), this.waits.delete(key), this.attempts.reward(network(address), 1)]);
  }

  /** Counts one registration from the address: the seconds to wait when over the limit, else 0. */
  async registration(address: string): Promise<number> {
    return consumed(this.registrations, network(address));
  }
}

async function consumed(limiter: StoreRateLimiter, key: string): Promise<number> {
  try {
    await limiter.consume(key);
    return 0;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return seconds(rejection);
    throw rejection;
  }
}

/** The address as counted per address: IPv4 (mapped or not) whole, IPv6 by its /64; hashed. */
function network(address: string): string {
  if (!ipaddr.isValid(address)) return sha256Hex(address);
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return sha256Hex(parsed.toString());
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return sha256Hex(`${prefix.join(':')}::/64`);
}

// Hashed: the table holds no email address nor client address in clear.
const pair = (email: string, address: string) => sha256Hex(`${email}\n${address}`);

const seconds = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));
