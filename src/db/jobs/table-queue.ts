import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../shared/clock.js';
import {
  retryAt,
  type JobCounts,
  type JobData,
  type JobHandler,
  type JobQueue,
  type RetryPolicy,
  type SendOptions,
} from '../../modules/jobs/jobs.js';
import type { DB } from '../schema.js';

/**
 * The job queue of the embedded database: a table in the same file, worked
 * by the one process that owns it. A job is taken by one statement (SQLite
 * has one writer), so it runs once; a job found running at start was running
 * when the process died, and is tried again. Idle, the worker only reads: an
 * idle poll takes no write lock from the requests.
 */
export class TableQueue implements JobQueue {
  readonly kind = 'sqlite';
  readonly #handlers = new Map<string, JobHandler>();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;
  /**
   * The context the queue was made in (outside any request): a send inside a
   * transaction or a dry run wakes the worker from here, so that the worker's
   * queries never run on that transaction's held connection.
   */
  readonly #outside = new AsyncResource('pageblocks.jobs');

  constructor(
    private readonly db: Kysely<DB>,
    private readonly policy: RetryPolicy,
    private readonly clock: Clock,
    /** Told of a handler's failure (the operator's log): the job is retried or failed either way. */
    private readonly onFailure: (job: { id: string; name: string; attempt: number }, error: unknown) => void,
  ) {}

  async send(name: string, data: JobData, options: SendOptions = {}): Promise<string> {
    const id = randomUUID();
    const now = this.clock.now().toISOString();
    await this.db
      .insertInto('jobs')
      .values({
        id,
        name,
        data: JSON.stringify(data),
        state: 'created',
        run_at: (options.runAt ?? this.clock.now()).toISOString(),
        attempts: 0,
        retry_limit: options.retryLimit ?? this.policy.retryLimit,
        last_error: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    // Inside a transaction, the worker waits for its commit (one connection) and then sees the job.
    if (!options.runAt || options.runAt <= this.clock.now()) this.#outside.runInAsyncScope(() => this.#nudge());
    return id;
  }

  async cancel(_name: string, id: string): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ state: 'cancelled', updated_at: this.clock.now().toISOString() })
      .where('id', '=', id)
      .where('state', 'in', ['created', 'retry'])
      .execute();
  }

  work(name: string, handler: JobHandler): void {
    this.#handlers.set(name, handler);
  }

  async start(): Promise<void> {
    this.#stopped = false;
    await this.db
      .updateTable('jobs')
      .set({ state: 'retry', updated_at: this.clock.now().toISOString() })
      .where('state', '=', 'active')
      .execute();
    this.#nudge();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  async check(): Promise<void> {
    await this.db.selectFrom('jobs').select('id').limit(1).execute();
  }

  async counts(): Promise<JobCounts> {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['state', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('state', 'in', ['created', 'retry', 'active', 'failed'])
      .groupBy('state')
      .execute();
    const of = (state: string) => Number(rows.find((row) => row.state === state)?.count ?? 0);
    return {
      queued: of('created') + of('retry'),
      running: of('active'),
      failed: of('failed'),
      retried: of('retry'),
    };
  }

  /** Works due jobs now, unless a run is under way (it takes them too). */
  #nudge(): void {
    if (this.#stopped || this.#running || this.#handlers.size === 0) return;
    clearTimeout(this.#timer);
    this.#running = this.#drain().finally(() => {
      this.#running = undefined;
      if (!this.#stopped) {
        this.#timer = setTimeout(() => this.#nudge(), this.policy.pollSeconds * 1000);
        this.#timer.unref();
      }
    });
  }

  async #drain(): Promise<void> {
    while (!this.#stopped) {
      const job = await this.#take();
      if (!job) return;
      await this.#run(job);
    }
  }

  async #take() {
    const now = this.clock.now().toISOString();
    const names = [...this.#handlers.keys()];
    // Read first: an idle poll writes nothing.
    const due = await this.db
      .selectFrom('jobs')
      .select('id')
      .where('state', 'in', ['created', 'retry'])
      .where('run_at', '<=', now)
      .where('name', 'in', names)
      .orderBy('run_at')
      .limit(1)
      .executeTakeFirst();
    if (!due) return undefined;
    return this.db
      .updateTable('jobs')
      .set((eb) => ({ state: 'active', attempts: eb('attempts', '+', 1), updated_at: now }))
      .where('id', '=', due.id)
      .where('state', 'in', ['created', 'retry'])
      .returning(['id', 'name', 'data', 'attempts', 'retry_limit'])
      .executeTakeFirst();
  }

  async #run(job: { id: string; name: string; data: string; attempts: number; retry_limit: number }) {
    const attempt = job.attempts;
    try {
      await this.#handlers.get(job.name)!({
        id: job.id,
        name: job.name,
        data: JSON.parse(job.data) as JobData,
        attempt,
      });
      await this.db
        .updateTable('jobs')
        .set({ state: 'completed', last_error: null, updated_at: this.clock.now().toISOString() })
        .where('id', '=', job.id)
        .execute();
    } catch (error) {
      this.onFailure({ id: job.id, name: job.name, attempt }, error);
      const now = this.clock.now();
      const last = attempt > job.retry_limit;
      await this.db
        .updateTable('jobs')
        .set({
          state: last ? 'failed' : 'retry',
          last_error: error instanceof Error ? error.message : String(error),
          ...(last ? {} : { run_at: retryAt(now, attempt, this.policy).toISOString() }),
          updated_at: now.toISOString(),
        })
        .where('id', '=', job.id)
        .execute();
    }
  }
}
