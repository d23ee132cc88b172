/**
 * `npm run bench:profile -- <B1|B2|B3|B3cold|B4>`: one benchmark's load against the service
 * started with --cpu-prof, then the functions with the most self time. For
 * finding what is in the way of a target; the figures belong to `npm run bench`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchValues, BENCH_FIELDS, BENCH_TEMPLATE, signUp, site as newSite, v1 } from './lib/api.js';
import { dropPostgresSchema } from '../src/db/dialects/postgres.js';
import { growLibrary } from './lib/bulk.js';
import { latencies, load } from './lib/load.js';
import { startPinned } from './lib/processes.js';

const which = process.argv[2] ?? 'B1';
const dataDir = await mkdtemp(join(tmpdir(), 'pb-profile-'));
const profileDir = await mkdtemp(join(tmpdir(), 'pb-cpuprofile-'));
execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
const schema = process.env.DATABASE_URL ? `profile_${Date.now().toString(36)}` : undefined;
const env = {
  DATA_DIR: dataDir,
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL, DATABASE_SCHEMA: schema! } : {}),
};
const service = await startPinned(
  ['--max-semi-space-size=4', '--cpu-prof', `--cpu-prof-dir=${profileDir}`, 'dist/main.js'],
  env,
);
const session = await signUp(service.url);
const siteId = await newSite(session);
const block = await v1(session, 'POST', '/blocks', {
  name: 'Profile block',
  template: BENCH_TEMPLATE,
  schema_content: BENCH_FIELDS,
});
const instances = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ block_id: block.id, placeholder_values: benchValues(i) }));
const auth = { authorization: `Bearer ${session.key}` };
if (which === 'B1') {
  const page = await v1(session, 'POST', '/pages', { name: 'Twenty', site_id: siteId, blocks: instances(20) });
  const r = await load({
    url: `${service.url}/api/v1/pages/${page.id}?with_blocks=1`,
    connections: 10,
    seconds: 8,
    headers: auth,
    serverPid: service.child.pid,
  });
  console.log(`B1: ${r.rps.toFixed(0)} req/s, p99 ${r.p99} ms, ${r.cpuUs?.toFixed(0)} µs/req (profiled)`);
} else if (which === 'B2') {
  const body = JSON.stringify({ name: 'Created', site_id: siteId, blocks: instances(20) });
  const r = await load({
    url: `${service.url}/api/v1/pages`,
    connections: 10,
    seconds: 8,
    method: 'POST',
    body,
    headers: { ...auth, 'content-type': 'application/json' },
    serverPid: service.child.pid,
  });
  console.log(`B2: ${r.rps.toFixed(0)} req/s, p99 ${r.p99} ms, ${r.cpuUs?.toFixed(0)} µs/req (profiled)`);
} else if (which === 'B4') {
  // Block search at B4_SIZE blocks (100k unless told), one request at a time, as `npm run bench`.
  const size = Number(process.env.B4_SIZE ?? 100_000);
  await growLibrary({ dataDir, databaseUrl: process.env.DATABASE_URL, schema }, session.userId, size);
  const search = () => fetch(`${service.url}/api/v1/search/blocks?q=gallery`, { headers: auth });
  await latencies(20, search);
  const r = await latencies(500, search);
  console.log(`B4 at ${size}: p50 ${r.p50.toFixed(2)} p95 ${r.p95.toFixed(2)} ms (profiled)`);
} else if (which === 'B3cold') {
  // Previews of pages whose values were never rendered: every instance rendered.
  const pages: number[] = [];
  for (let k = 1; k <= 30; k++)
    pages.push(
      (
        await v1(session, 'POST', '/pages', {
          name: `Cold ${k}`,
          site_id: siteId,
          blocks: Array.from({ length: 200 }, (_, i) => ({
            block_id: block.id,
            placeholder_values: benchValues(k * 1000 + i),
          })),
        })
      ).id,
    );
  const r = await latencies(pages.length, () =>
    fetch(`${service.url}/api/v1/pages/${pages.shift()}/preview`, { headers: auth }),
  );
  console.log(`B3 cold: ${r.mean.toFixed(2)} ms mean`);
} else {
  const page = await v1(session, 'POST', '/pages', { name: 'Two hundred', site_id: siteId, blocks: instances(200) });
  const r = await latencies(100, () => fetch(`${service.url}/api/v1/pages/${page.id}/preview`, { headers: auth }));
  console.log(`B3: ${r.mean.toFixed(2)} ms mean`);
}
await service.stop();

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
}
// The main thread's profile: render threads write theirs beside it, later.
const file = (await readdir(profileDir)).filter((f) => f.endsWith('.cpuprofile')).sort()[0]!;
const profile = JSON.parse(await readFile(join(profileDir, file), 'utf8')) as { nodes: Node[] };
const self = new Map<string, number>();
let total = 0;
for (const n of profile.nodes) {
  const where = n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, '');
  const key = `${n.callFrame.functionName || '(anonymous)'} ${where}:${n.callFrame.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + n.hitCount);
  total += n.hitCount;
}
for (const [key, hits] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40))
  console.log(`${((100 * hits) / total).toFixed(1).padStart(5)} %  ${key}`);
console.log(`profile: ${join(profileDir, file)}`);
await rm(dataDir, { recursive: true, force: true });
if (schema) await dropPostgresSchema(process.env.DATABASE_URL!, schema);
