/**
 * The job queue on the configured database (its own table on SQLite, pg-boss
 * on PostgreSQL): a job runs once, failures are tried again with a doubling
 * delay up to the limit, a job waits for its time, a cancelled one never
 * runs, jobs outlive the process that stored them, and of two queues on one
 * database each job runs on one. Delays are configured in seconds, not slept
 * for minutes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { openDatabase, type Database } from '../../src/db/database.js';
import { openJobQueue } from '../../src/db/jobs/index.js';
import type { Job, JobQueue } from '../../src/modules/jobs/jobs.js';
import { systemClock } from '../../src/shared/clock.js';
import { testSetup } from '../support/app.js';

const POLICY = { retryLimit: 3, retryDelaySeconds: 1, pollSeconds: 0.5 };
const setup = await testSetup({ env: { JOB_RETRY_LIMIT: '3', JOB_RETRY_DELAY_SECONDS: '1', JOB_POLL_SECONDS: '0.5' } });
const opened: { database: Database; queue: JobQueue }[] = [];
afterAll(async () => {
  for (const { queue, database } of opened) {
    await queue.stop();
    await database.close();
  }
  await setup.cleanup();
});

/** A queue over the test's database, each with its own connection, as another process would have. */
async function queue(handlers: Record<string, (job: Job) => Promise<void>> = {}) {
  const database = await openDatabase(setup.config);
  const jobs = await openJobQueue({ ...setup.config, jobs: POLICY }, database, systemClock, pino({ level: 'silent' }));
  for (const [name, handler] of Object.entries(handlers)) jobs.work(name, handler);
  await jobs.start();
  opened.push({ database, queue: jobs });
  return jobs;
}

const until = async (done: () => boolean, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('waited too long');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe(`the job queue (${process.env.DATABASE_URL ? 'pg-boss' : 'SQLite table'})`, () => {
  it('runs a job once, with its data, at its first try', async () => {
    const seen: Job[] = [];
    const jobs = await queue({ once: async (job) => void seen.push(job) });
    const id = await jobs.send('once', { page: 12 });
    await until(() => seen.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(seen).toEqual([{ id, name: 'once', data: { page: 12 }, attempt: 1 }]);
  });

  it('tries a failing job again after doubling delays, and completes it at the fourth try', async () => {
    const tries: number[] = [];
    const jobs = await queue({
      flaky: async (job) => {
        tries.push(Date.now());
        if (job.attempt < 4) throw new Error(`receiver down (${job.attempt})`);
      },
    });
    await jobs.send('flaky', {});
    await until(() => tries.length === 4, 45_000);
    const gaps = tries.slice(1).map((at, i) => (at - tries[i]!) / 1000);
    // 1, 2 and 4 seconds (pg-boss waits up to as long again), each within a poll.
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(2 ** i - 0.1));
    expect(gaps[2]!).toBeGreaterThan(gaps[0]!);
    const counts = await jobs.counts();
    expect(counts.failed).toBe(0);
    expect(counts.running + counts.queued).toBe(0);
  }, 60_000);

  it('fails a job after its last try, counted as failed', async () => {
    let tries = 0;
    const jobs = await queue({
      doomed: async () => {
        tries++;
        throw new Error('always');
      },
    });
    await jobs.send('doomed', {}, { retryLimit: 1 });
    await until(() => tries === 2, 20_000);
    let counts = await jobs.counts();
    for (let i = 0; i < 40 && counts.failed === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      counts = await jobs.counts();
    }
    expect(counts.failed).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(tries).toBe(2);
  }, 30_000);

  it('waits for a job’s time, and never runs a cancelled one', async () => {
    const ran: string[] = [];
    const jobs = await queue({ later: async (job) => void ran.push(String(job.data.n)) });
    const sent = Date.now();
    await jobs.send('later', { n: 'due' }, { runAt: new Date(sent + 2000) });
    const cancelled = await jobs.send('later', { n: 'cancelled' }, { runAt: new Date(sent + 1000) });
    await jobs.cancel('later', cancelled);
    await until(() => ran.length === 1);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(1900);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(ran).toEqual(['due']);
  });

  it('keeps a job stored by a process that stopped before running it, and runs it once in the next', async () => {
    const first = await queue();
    const id = await first.send('kept', { n: 1 });
    await first.stop();
    const seen: string[] = [];
    await queue({ kept: async (job) => void seen.push(job.id) });
    await until(() => seen.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(seen).toEqual([id]);
  });

  it('runs each job on one of two queues working one database', async () => {
    const runs = new Map<number, string[]>();
    const handler = (who: string) => async (job: Job) => {
      const n = job.data.n as number;
      runs.set(n, [...(runs.get(n) ?? []), who]);
      await new Promise((resolve) => setTimeout(resolve, 20));
    };
    // Stored first, then both queues start at once: each looks for the same due jobs at the same moment.
    const producer = await queue();
    for (let n = 0; n < 20; n++) await producer.send('shared', { n });
    await Promise.all([queue({ shared: handler('a') }), queue({ shared: handler('b') })]);
    await until(() => runs.size === 20);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect([...runs.values()].every((who) => who.length === 1)).toBe(true);
  }, 60_000);
});
