/**
 * `npm run bench:b4`: where a block search's time goes as the library grows
 * (1k, 10k, 100k blocks). Beside the end-to-end p95 (as `npm run bench`), the
 * same search timed in process, step by step: the count and the ranked ids, then
 * the page's rows with all their columns, the serialization; and the plans at the largest
 * size. On PostgreSQL when DATABASE_URL is set. The figures of record belong to
 * `npm run bench`; this one is for finding what is in the way.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.js';
import { dropPostgresSchema } from '../src/db/dialects/postgres.js';
import { blocksRepository } from '../src/db/repositories/blocks.repository.js';
import { presentBlocks } from '../src/http/presenters/blocks.presenter.js';
import { signUp } from './lib/api.js';
import { growLibrary } from './lib/bulk.js';
import { latencies } from './lib/load.js';
import { cpuNanos, startPinned } from './lib/processes.js';

const SIZES = (process.env.B4_SIZES ?? '1000,10000,100000').split(',').map(Number);
const N = Number(process.env.B4_N ?? 200);
const databaseUrl = process.env.DATABASE_URL || undefined;
const schema = databaseUrl ? `b4_${Date.now().toString(36)}` : undefined;
const dataDir = await mkdtemp(join(tmpdir(), 'pb-b4-'));
const env = { dataDir, databaseUrl, schema };
const envOf = { DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', DATABASE_SCHEMA: schema ?? '' };
if (!process.env.B4_NO_BUILD) execFileSync('node', ['scripts/build.mjs'], { stdio: 'inherit' });
const SERVICE = ['--max-semi-space-size=4', 'dist/main.js'];

/** p50 and p95 in ms of `n` sequential runs of `work`, after a few to warm up. */
async function timed(n: number, work: () => Promise<unknown>) {
  for (let i = 0; i < 10; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
  return `p50 ${at(0.5)} p95 ${at(0.95)}`;
}

let service = await startPinned(SERVICE, envOf);
const session = await signUp(service.url);
await service.stop();
const query = { terms: ['gallery'], viewerId: session.userId, limit: 50, offset: 0 };
try {
  for (const size of SIZES) {
    await growLibrary(env, session.userId, size);
    service = await startPinned(SERVICE, envOf);
    const url = `${service.url}/api/v1/search/blocks?q=gallery`;
    const auth = { authorization: `Bearer ${session.key}` };
    await latencies(20, () => fetch(url, { headers: auth }));
    // CPU per request of the server (every thread, from schedstat: /proc's ticks are 10 ms)
    // and of this process, the client: on a shared machine the client's fetch is a good part
    // of a small search's end-to-end time.
    const cpu0 = cpuNanos(service.child.pid!);
    const client0 = process.cpuUsage();
    const e2e = await latencies(N, () => fetch(url, { headers: auth }));
    const serverUs = (cpuNanos(service.child.pid!) - cpu0) / N / 1000;
    const client = process.cpuUsage(client0);
    const clientUs = (client.user + client.system) / N;
    await service.stop();

    const database = await openDatabase({ dataDir, databaseUrl, databaseSchema: schema });
    try {
      const { db, dialect } = database;
      const repo = blocksRepository(database);
      const found = await repo.search(query);
      const body = { data: found.rows, total: found.total, limit: 50, offset: 0 };
      console.log(`\n${dialect.name} ${size} blocks: total ${found.total}, ${found.rows.length} rows`);
      console.log(
        `  end to end (HTTP)        p50 ${e2e.p50.toFixed(2)} p95 ${e2e.p95.toFixed(2)}, ` +
          `server CPU ${serverUs.toFixed(0)} µs/req, client (fetch) CPU ${clientUs.toFixed(0)} µs/req`,
      );
      const ids = [sql`blocks.id`];
      console.log(`  dialect search (ids+count) ${await timed(N, () => dialect.search.search(db, query, ids))}`);
      console.log(`  repository (+all columns)  ${await timed(N, () => repo.search(query))}`);
      console.log(`  present + JSON.stringify   ${await timed(N, async () => JSON.stringify(presentBlocks(body)))}`);
    } finally {
      await database.close();
    }
  }
} finally {
  if (process.env.B4_KEEP) console.log(`kept ${dataDir} ${schema ?? ''}`);
  else {
    if (schema) await dropPostgresSchema(databaseUrl!, schema);
    await rm(dataDir, { recursive: true, force: true });
  }
}
