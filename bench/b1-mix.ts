/**
 * `npm run bench:mix -- [dist dir]`: B1-mix alone (as in run.ts) against a
 * production build, on SQLite, or on PostgreSQL when DATABASE_URL is set, so
 * that a change can be compared with the build of another commit (see b12.ts).
 * BENCH_PAGES (2000) and BENCH_SECONDS (10) change its size and length;
 * PAGE_CACHE_MB is passed on; BENCH_METRICS=1 adds the kept answers' hit ratio.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropPostgresSchema } from '../src/db/dialects/postgres.js';
import { measureMix, mixLine } from './lib/mix.js';
import { LOAD_CORE, pin } from './lib/processes.js';

const dist = process.argv[2] ?? 'dist';
const dataDir = await mkdtemp(join(tmpdir(), 'pb-mix-'));
const databaseUrl = process.env.DATABASE_URL ?? '';
const schema = databaseUrl ? `mix_${Date.now().toString(36)}` : '';
// The writer and the seeding are clients: on the load core, never beside the server.
pin(LOAD_CORE);
try {
  const r = await measureMix({
    service: ['--max-semi-space-size=4', join(dist, 'main.js')],
    floor: ['--import', 'tsx', 'bench/http-floor.ts'],
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: schema,
      ...(process.env.PAGE_CACHE_MB && { PAGE_CACHE_MB: process.env.PAGE_CACHE_MB }),
      // The hit ratio in the line, at the cost of the metrics' own work on each request.
      ...(process.env.BENCH_METRICS && { METRICS: '1' }),
    },
    pages: Number(process.env.BENCH_PAGES ?? 2000),
    seconds: Number(process.env.BENCH_SECONDS ?? 10),
  });
  console.log(`${dist} on ${databaseUrl ? 'PostgreSQL' : 'SQLite'}: B1-mix ${mixLine(r)}`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
  if (databaseUrl) await dropPostgresSchema(databaseUrl, schema);
}
