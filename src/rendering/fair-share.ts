/**
 * Who renders next on the pool's threads. One user's pages once filled every
 * thread and the one shared queue, and another user's preview waited seconds
 * behind them (issue 25). Here each user waits in a queue of their own, users
 * are served in turn, and a user already rendering never takes the last free
 * thread: a user who has nothing running finds it free. A user's previews
 * wait at most `waitingPerUser` at a time; past that a preview is refused at
 * once (`rate_limited`, with the seconds after which to try again), never
 * queued without end. Publications are never refused and go first in their
 * user's queue.
 */
import { AppError, rateLimited } from '../shared/errors.js';
import type { RenderFor } from '../modules/publishing/publishing.js';

/** Gives back the place taken by `acquire`. Call it once, when the thread is done. */
export type Release = () => void;

interface Waiter {
  purpose: RenderFor['purpose'];
  grant: (release: Release) => void;
}

/** A render whose requester went away while it waited: it gave its place back, and never ran. */
export const abandoned = () =>
  new AppError('conflict', 'The request was abandoned before its render started: the render was not run.');

interface Tenant {
  running: number;
  /** Publications first, then previews; each in the order they came. */
  waiting: Waiter[];
}

export interface FairShareOptions {
  /** Renders that may run at once (the pool's threads). */
  slots: number;
  /** Previews of one user that may wait at once; past that, a preview is refused. */
  waitingPerUser: number;
}

/** How long a render holds a thread, as last seen: a new user's first guess, and the basis of `retry_after`. */
const FIRST_GUESS_MS = 1000;
const RETRY_AFTER_MAX_S = 60;

export class FairShare {
  readonly #slots: number;
  readonly #waitingPerUser: number;
  #running = 0;
  /** Only users with something running or waiting: an idle user costs nothing. */
  readonly #tenants = new Map<number | symbol, Tenant>();
  /** Users with someone waiting, in the order they will be served. */
  #turns: (number | symbol)[] = [];
  /** A moving mean of how long a render holds its thread. */
  #holdMs = FIRST_GUESS_MS;

  constructor(options: FairShareOptions) {
    this.#slots = Math.max(1, options.slots);
    this.#waitingPerUser = Math.max(0, options.waitingPerUser);
  }

  /**
   * A place on a thread for `renderFor`, when its turn comes. Without
   * `renderFor` the render is nobody's in particular: it waits its turn like
   * a user of its own, and is never refused.
   */
  acquire(renderFor?: RenderFor): Promise<Release> {
    const key = renderFor?.userId ?? Symbol('anonymous');
    const purpose = renderFor?.purpose ?? 'publication';
    let tenant = this.#tenants.get(key);
    if (!tenant) {
      tenant = { running: 0, waiting: [] };
      this.#tenants.set(key, tenant);
    }
    if (purpose === 'preview' && !this.#mayStart(tenant)) {
      const previews = tenant.waiting.filter((w) => w.purpose === 'preview').length;
      if (previews >= this.#waitingPerUser) {
        const seconds = this.#retryAfter(tenant);
        this.#forgetIfIdle(key, tenant);
        throw rateLimited(
          `Your previews are using your share of the renderer: ${tenant.running} rendering and ${previews} waiting. ` +
            `Try again in ${seconds} s.`,
          seconds,
        );
      }
    }
    const signal = renderFor?.signal;
    if (signal?.aborted) {
      this.#forgetIfIdle(key, tenant);
      return Promise.reject(abandoned());
    }
    return new Promise<Release>((resolve, reject) => {
      // A requester that goes away while its render waits gives its place back at once.
      const leave = () => {
        const waiting = tenant.waiting.indexOf(waiter);
        if (waiting === -1) return;
        tenant.waiting.splice(waiting, 1);
        if (tenant.waiting.length === 0) this.#turns = this.#turns.filter((turn) => turn !== key);
        this.#forgetIfIdle(key, tenant);
        reject(abandoned());
      };
      const waiter: Waiter = {
        purpose,
        grant: (release) => {
          signal?.removeEventListener('abort', leave);
          resolve(release);
        },
      };
      signal?.addEventListener('abort', leave, { once: true });
      const at = purpose === 'publication' ? tenant.waiting.findIndex((w) => w.purpose === 'preview') : -1;
      if (at === -1) tenant.waiting.push(waiter);
      else tenant.waiting.splice(at, 0, waiter);
      if (tenant.waiting.length === 1) this.#turns.push(key);
      this.#dispatch();
    });
  }

  /** Renders running and waiting now, for tests and metrics. */
  get load(): { running: number; waiting: number } {
    let waiting = 0;
    for (const tenant of this.#tenants.values()) waiting += tenant.waiting.length;
    return { running: this.#running, waiting };
  }

  /** Whether this user may take a free thread now: not the last one while they have one already. */
  #mayStart(tenant: Tenant): boolean {
    const free = this.#slots - this.#running;
    return free > 0 && (tenant.running === 0 || free > 1);
  }

  /** Grants free threads to waiting users in turn, skipping those who may not take one now. */
  #dispatch(): void {
    let scanned = 0;
    while (this.#running < this.#slots && scanned < this.#turns.length) {
      const key = this.#turns[scanned]!;
      const tenant = this.#tenants.get(key)!;
      if (!this.#mayStart(tenant)) {
        scanned++;
        continue;
      }
      const waiter = tenant.waiting.shift()!;
      // Served: to the back of the turns when more of theirs wait, out of them otherwise.
      this.#turns.splice(scanned, 1);
      if (tenant.waiting.length > 0) this.#turns.push(key);
      scanned = 0;
      this.#start(key, tenant, waiter);
    }
  }

  #start(key: number | symbol, tenant: Tenant, waiter: Waiter): void {
    this.#running++;
    tenant.running++;
    const started = performance.now();
    let released = false;
    waiter.grant(() => {
      if (released) return;
      released = true;
      this.#holdMs += (performance.now() - started - this.#holdMs) / 8;
      this.#running--;
      tenant.running--;
      this.#forgetIfIdle(key, tenant);
      this.#dispatch();
    });
  }

  #forgetIfIdle(key: number | symbol, tenant: Tenant): void {
    if (tenant.running === 0 && tenant.waiting.length === 0) this.#tenants.delete(key);
  }

  /** When a place is likely free again: the user's renders ahead, at the pace renders go now, on the threads a user may hold. */
  #retryAfter(tenant: Tenant): number {
    const share = Math.max(1, this.#slots - 1);
    const ahead = tenant.running + tenant.waiting.length;
    const seconds = Math.ceil((ahead * this.#holdMs) / share / 1000);
    return Math.min(RETRY_AFTER_MAX_S, Math.max(1, seconds));
  }
}
