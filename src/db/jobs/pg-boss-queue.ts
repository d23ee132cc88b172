import PgBoss from 'pg-boss';
import type { JobCounts, JobData, JobHandler, JobQueue, RetryPolicy, SendOptions } from '../../modules/jobs/jobs.js';

/**
 * The job queue on PostgreSQL: pg-boss, in a schema of its own beside the
 * service's. It takes a job with `SKIP LOCKED`, so of several instances on
 * one database exactly one runs it; retries wait `retryDelay · 2ⁿ` and up to
 * as long again (pg-boss's jitter); a job whose instance died while running
 * it is expired after `expireSeconds` and tried again.
 */
export class PgBossQueue implements JobQueue {
  readonly kind = 'pg-boss';
  readonly #boss: PgBoss;
  readonly #handlers = new Map<string, JobHandler>();
  readonly #queues = new Set<string>();
  #started: Promise<void> | undefined;

  readonly #schema: string;
  readonly #db: { executeSql: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }> };

  constructor(
    options: {
      url: string;
      schema: string;
      expireSeconds: number;
      /**
       * Runs pg-boss's insert through the service's own connections: inside a
       * transaction of the service (`Database.transact`, a dry run) the job is
       * stored in it, committed or rolled back with the change that sent it.
       */
      executeSql: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>;
    },
    private readonly policy: RetryPolicy,
    onError: (error: Error) => void,
    /** Told of a handler's failure (the operator's log): pg-boss retries or fails the job either way. */
    private readonly onFailure: (job: { id: string; name: string; attempt: number }, error: unknown) => void,
  ) {
    this.#schema = options.schema;
    this.#db = { executeSql: options.executeSql };
    this.#boss = new PgBoss({
      connectionString: options.url,
      schema: options.schema,
      // Two connections: one for polling, one for sends and completions.
      max: 2,
      retryLimit: policy.retryLimit,
      retryDelay: policy.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: options.expireSeconds,
      // No cron: every job names its own time.
      schedule: false,
    });
    this.#boss.on('error', onError);
  }

  /** Started at the first use: a service (or a test) that never queues anything opens no connection. */
  #ready(): Promise<void> {
    this.#started ??= this.#boss.start().then(() => undefined);
    return this.#started;
  }

  async #queue(name: string): Promise<void> {
    await this.#ready();
    if (this.#queues.has(name)) return;
    await this.#boss.createQueue(name, {
      name,
      retryLimit: this.policy.retryLimit,
      retryDelay: this.policy.retryDelaySeconds,
      retryBackoff: true,
    });
    this.#queues.add(name);
  }

  async send(name: string, data: JobData, options: SendOptions = {}): Promise<string> {
    await this.#queue(name);
    const id = await this.#boss.send(name, data, {
      db: this.#db,
      ...(options.runAt ? { startAfter: options.runAt } : {}),
      ...(options.retryLimit !== undefined ? { retryLimit: options.retryLimit } : {}),
    });
    if (id === null) throw new Error(`The job queue refused a job of ${name}.`);
    return id;
  }

  async cancel(name: string, id: string): Promise<void> {
    await this.#queue(name);
    await this.#boss.cancel(name, id);
  }

  work(name: string, handler: JobHandler): void {
    this.#handlers.set(name, handler);
  }

  async start(): Promise<void> {
    if (this.#handlers.size === 0) return;
    for (const [name, handler] of this.#handlers) {
      await this.#queue(name);
      // pg-boss's worker waits its polling interval after every fetch, a job found or not: one job per
      // interval (two a second). Told after each job, it fetches the next at once and waits only when idle.
      const worker: { id?: string } = {};
      worker.id = await this.#boss.work<JobData>(
        name,
        { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: Math.max(0.5, this.policy.pollSeconds) },
        async ([job]) => {
          const attempt = job!.retryCount + 1;
          try {
            await handler({ id: job!.id, name, data: job!.data, attempt });
          } catch (error) {
            this.onFailure({ id: job!.id, name, attempt }, error);
            throw error;
          } finally {
            if (worker.id) this.#boss.notifyWorker(worker.id);
          }
        },
      );
    }
  }

  async stop(): Promise<void> {
    if (!this.#started) return;
    await this.#started.catch(() => undefined);
    await this.#boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }

  get #table(): string {
    return `"${this.#schema.replace(/"/g, '""')}".job`;
  }

  async check(): Promise<void> {
    await this.#ready();
    // The job table itself, not a bare round trip: a queue whose store is gone does not work.
    await this.#boss.getDb().executeSql(`select 1 from ${this.#table} limit 1`, []);
  }

  async counts(): Promise<JobCounts> {
    await this.#ready();
    const { rows } = await this.#boss
      .getDb()
      .executeSql(
        `select state, count(*)::int as count from "${this.#schema.replace(/"/g, '""')}".job group by state`,
        [],
      );
    const of = (state: string) =>
      Number((rows as { state: string; count: number }[]).find((r) => r.state === state)?.count ?? 0);
    return { queued: of('created') + of('retry'), running: of('active'), failed: of('failed'), retried: of('retry') };
  }
}
