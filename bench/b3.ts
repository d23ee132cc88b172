/**
 * `npm run bench:b3 -- [dist dir]`: B3 alone (the 200-block preview, warm and
 * cold, measured as in run.ts, each request beside LiquidJS alone) against a
 * production build, so that a change to rendering can be compared with the
 * build of another commit (`node scripts/build.mjs .bench/before` in a checkout
 * of it, then `npm run bench:b3 -- <that checkout>/.bench/before`: the build must
 * sit inside a checkout, whose node_modules hold the packages left outside the bundle). With DATABASE_URL, on PostgreSQL (in a
 * schema of its own, dropped after).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropPostgresSchema } from '../src/db/dialects/postgres.js';
import { benchValues, signUp, tenBlocks, site as newSite, v1 } from './lib/api.js';
import { b3Rows, measureB3 } from './lib/previews.js';
import { startPinned } from './lib/processes.js';

const dist = process.argv[2] ?? 'dist';
const FLAGS = ['--max-semi-space-size=4'];
const databaseUrl = process.env.DATABASE_URL || undefined;
const schema = databaseUrl ? `bench_b3_${Date.now().toString(36)}` : '';
const dataDir = await mkdtemp(join(tmpdir(), 'pb-b3-'));
const service = await startPinned([...FLAGS, join(dist, 'main.js')], {
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl ?? '',
  DATABASE_SCHEMA: schema,
});
try {
  const session = await signUp(service.url);
  const siteId = await newSite(session);
  // As run.ts: ten blocks, each its own template and CSS, the instances going round them.
  const blocks = await tenBlocks(session, 'B3');
  const run = await measureB3({
    url: service.url,
    key: session.key,
    pid: service.child.pid!,
    databaseUrl,
    nodeFlags: FLAGS,
    blocks,
    instances: (n, from = 0) =>
      Array.from({ length: n }, (_, i) => ({
        block_id: blocks[i % blocks.length].id,
        placeholder_values: benchValues(from + i),
      })),
    createPage: async (name, instances) =>
      (await v1(session, 'POST', '/pages', { name, site_id: siteId, blocks: instances })).id,
  });
  for (const row of b3Rows(run, databaseUrl !== undefined))
    console.log(
      `${dist} ${databaseUrl ? 'PostgreSQL' : 'SQLite'} ${row.id}: ${row.figure} | floor ${row.floor} | ${row.ratio}`,
    );
} finally {
  await service.stop();
  await rm(dataDir, { recursive: true, force: true });
  if (databaseUrl) await dropPostgresSchema(databaseUrl, schema);
}
