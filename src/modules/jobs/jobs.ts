/**
 * Port: work that must happen later than the request that caused it, exactly
 * once. A job is stored before `send` resolves (in the caller's transaction
 * where one is given), survives restarts, runs on one instance at a time, and
 * a handler that throws is tried again after a delay that doubles each time,
 * up to its limit; then it is failed, with the last error kept. Nothing that
 * must happen waits on a `setTimeout`.
 */
export interface JobQueue {
  /** Which store holds the jobs: the embedded database's job table, or pg-boss on PostgreSQL. */
  readonly kind: 'sqlite' | 'pg-boss';
  /**
   * Stores a job; it runs at `runAt` (now without it). Resolves to its id.
   * Sent inside a transaction of the database (`Database.transact`, a dry
   * run), the job is part of it: committed with the change, or never stored.
   */
  send(name: string, data: JobData, options?: SendOptions): Promise<string>;
  /** A job not yet running is never run; one running ends as it will. */
  cancel(name: string, id: string): Promise<void>;
  /**
   * Runs the jobs of `name` with `handler`, one at a time on this instance.
   * Registered before `start`.
   */
  work(name: string, handler: JobHandler): void;
  /** Starts working the registered names (a job left running by a process that died is tried again). */
  start(): Promise<void>;
  /** Stops taking jobs and waits for the running ones to end. */
  stop(): Promise<void>;
  /** Throws when the queue's store does not answer (`/ready`). */
  check(): Promise<void>;
  /** Jobs by state, every name together (`/metrics`). */
  counts(): Promise<JobCounts>;
}

export type JobData = Record<string, unknown>;

export interface SendOptions {
  runAt?: Date;
  /** Tries after the first, each after twice the delay of the one before. */
  retryLimit?: number;
}

export interface Job {
  id: string;
  name: string;
  data: JobData;
  /** 1 for the first try. */
  attempt: number;
}

export type JobHandler = (job: Job) => Promise<void>;

export interface JobCounts {
  /** Waiting for their time or a worker, retries included. */
  queued: number;
  running: number;
  failed: number;
  /** Waiting to be tried again after a failure (a part of `queued`). */
  retried: number;
}

export interface RetryPolicy {
  /** Tries after the first, unless a job says otherwise. */
  retryLimit: number;
  /** Seconds before the first retry; each next one waits twice as long. */
  retryDelaySeconds: number;
  /** How often an idle worker looks for due jobs, in seconds. */
  pollSeconds: number;
}

/** When the try after `attempt` (1 for the first) runs: the delay doubles each time. */
export const retryAt = (now: Date, attempt: number, policy: Pick<RetryPolicy, 'retryDelaySeconds'>) =>
  new Date(now.getTime() + policy.retryDelaySeconds * 1000 * 2 ** (attempt - 1));
