/**
 * `npm run bench:b12 -- [dist dir]`: B1 and B2 alone (measured as in run.ts,
 * with the server's CPU per request) against a production build, on SQLite, or
 * on PostgreSQL when DATABASE_URL is set; so that a change can be compared with
 * the build of another commit (`node scripts/build.mjs .bench/before` in a checkout of
 * it: inside a checkout, whose node_modules hold the packages left outside the bundle).
 * `BENCH_ONLY=B1` (or B2) measures B1 (or B2) alone. B2's server CPU is split
 * between Node and, on PostgreSQL, the service's backends (/proc/<pid>/stat).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropPostgresSchema } from '../src/db/dialects/postgres.js';
import { benchValues, signUp, tenBlocks, site as newSite, v1 } from './lib/api.js';
import { backendsNamed, cpuSplit, namedUrl } from './lib/backends.js';
import { load, type LoadResult } from './lib/load.js';
import { startPinned } from './lib/processes.js';

const dist = process.argv[2] ?? 'dist';
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const dataDir = await mkdtemp(join(tmpdir(), 'pb-b12-'));
const databaseUrl = process.env.DATABASE_URL ?? '';
const schema = databaseUrl ? `b12_${Date.now().toString(36)}` : '';
const service = await startPinned(['--max-semi-space-size=4', join(dist, 'main.js')], {
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl && namedUrl(databaseUrl, schema),
  DATABASE_SCHEMA: schema,
});
// B2's CPU split: the service's PostgreSQL backends, told apart by their application_name (the schema's).
const backends = databaseUrl ? () => backendsNamed(databaseUrl, schema) : undefined;
try {
  const session = await signUp(service.url);
  const siteId = await newSite(session);
  const blocks = await tenBlocks(session, 'Bench');
  const instances = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ block_id: blocks[i % 10].id, placeholder_values: benchValues(i) }));
  const page = await v1(session, 'POST', '/pages', { name: 'Twenty', site_id: siteId, blocks: instances(20) });
  const auth = { authorization: `Bearer ${session.key}` };
  const serverPid = service.child.pid;
  const b1 =
    process.env.BENCH_ONLY === 'B2'
      ? undefined
      : await load({
          url: `${service.url}/api/v1/pages/${page.id}?with_blocks=1`,
          connections: 10,
          seconds,
          headers: auth,
          serverPid,
        });
  const b2 =
    process.env.BENCH_ONLY === 'B1'
      ? undefined
      : await load({
          url: `${service.url}/api/v1/pages`,
          connections: 10,
          seconds,
          method: 'POST',
          body: JSON.stringify({ name: 'Created', site_id: siteId, blocks: instances(20) }),
          headers: { ...auth, 'content-type': 'application/json' },
          serverPid,
          backends,
        });
  const line = (r: LoadResult) =>
    `${r.rps.toFixed(0)} req/s, ${cpuSplit(r)}, p99 ${r.p99} ms${r.non2xx ? `, ${r.non2xx} non-2xx` : ''}`;
  const rows = [...(b1 ? [`B1 ${line(b1)}`] : []), ...(b2 ? [`B2 ${line(b2)}`] : [])];
  console.log(`${dist} on ${databaseUrl ? 'PostgreSQL' : 'SQLite'}: ${rows.join('; ')}`);
} finally {
  await service.stop();
  await rm(dataDir, { recursive: true, force: true });
  if (databaseUrl) await dropPostgresSchema(databaseUrl, schema);
}
