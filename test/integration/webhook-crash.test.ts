/**
 * kill -9 between a write and its delivery: the service is a real process,
 * killed with SIGKILL after a page's event was stored and its first attempt
 * failed (the receiver answered 503), before the retry; started again on the
 * same data, it delivers the event, once, with the same message id and the
 * first attempt still in its log. On the configured database.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { jobSchema } from '../../src/db/jobs/index.js';
import { startApp, type TestApp } from '../support/app.js';
import { client } from '../support/client.js';
import { newSite, newUser } from '../support/factories.js';
import { startReceiver, until, type Receiver } from '../support/webhook-receiver.js';

/** The states of the delivery jobs in pg-boss's table. */
async function jobStates(schema: string): Promise<string[]> {
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    const { rows } = await db.query<{ state: string }>(
      `select state from "${jobSchema(schema)}".job where name = 'webhook.deliver'`,
    );
    return rows.map((row) => row.state);
  } finally {
    await db.end();
  }
}

const JOBS = { JOB_RETRY_LIMIT: '3', JOB_RETRY_DELAY_SECONDS: '3', JOB_POLL_SECONDS: '0.5' };
let receiver: Receiver | undefined;
let second: TestApp | undefined;
afterAll(async () => {
  await second?.close();
  await receiver?.close();
});

it('delivers after a restart an event stored before a kill -9', async () => {
  receiver = await startReceiver();
  const dataDir = await mkdtemp(join(tmpdir(), 'pageblocks-crash-'));
  const schema = process.env.DATABASE_URL ? `test_${randomBytes(6).toString('hex')}` : undefined;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      ...process.env,
      ...JOBS,
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_SCHEMA: schema ?? '',
      LOG_LEVEL: 'info',
      PROVIDER_ALLOW_PRIVATE: '1',
      WEB_DIR: 'test/fixtures/web-dist',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  try {
    const url = await until(
      async () => /listening at (http:\/\/[\d.]+:\d+)/.exec(output)?.[1],
      (found) => found !== undefined,
      60_000,
    );
    const first = client(url!) as unknown as TestApp;
    const user = await newUser(first);
    const siteId = (await newSite(first, user)).id;
    const hook = await first.call('POST', '/api/v1/webhooks', {
      key: user.key,
      body: { url: receiver.url('/crash'), events: ['page.created'] },
    });
    expect(hook.status).toBe(201);
    receiver.answer('/crash', 503);
    expect(
      (await first.call('POST', '/api/v1/pages', { key: user.key, body: { name: 'x', site_id: siteId } })).status,
    ).toBe(201);
    // The first attempt failed; the retry waits 3 s. Killed then, without a chance to finish anything.
    await until(
      async () =>
        (await first.call('GET', `/api/v1/webhooks/${hook.body.id}/deliveries`, { key: user.key })).body.data[0]
          ?.attempts,
      (n) => n === 1,
    );
    // On PostgreSQL, once pg-boss has put the job back for its retry: a job killed while running waits for
    // pg-boss's expiry instead (5 minutes), which this test does not wait for. SQLite retries those at start.
    if (schema)
      await until(
        () => jobStates(schema),
        (states) => states.includes('retry'),
      );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    expect(receiver.at('/crash')).toHaveLength(1);

    second = await startApp({ env: JOBS, storage: { dataDir, schema } });
    const deliveries = await until(
      async () =>
        (await second!.call('GET', `/api/v1/webhooks/${hook.body.id}/deliveries`, { key: user.key })).body.data,
      (d: any[]) => d[0]?.state === 'delivered',
      30_000,
    );
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ attempts: 2, response_status: 200 });
    expect(deliveries[0].attempt_log.map((a: { response_status: number }) => a.response_status)).toEqual([503, 200]);
    const sent = receiver.at('/crash');
    expect(sent).toHaveLength(2);
    expect(sent[1]!.headers['webhook-id']).toBe(sent[0]!.headers['webhook-id']);
  } finally {
    child.kill('SIGKILL');
  }
}, 120_000);
