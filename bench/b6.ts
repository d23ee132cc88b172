/**
 * `npm run bench:b6 -- [dist dir] [node flags…]`: B6 alone on SQLite, measured as in
 * run.ts (100k blocks, the searches of B4, then B1's load), with the resident
 * memory after start, after the searches and at the peak, split into anonymous
 * and file-backed pages; so that a change, or a node flag, can be compared.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signUp } from './lib/api.js';
import { twentyPage } from './lib/in-process.js';
import { growLibrary } from './lib/bulk.js';
import { latencies, load } from './lib/load.js';
import { rssMb, startPinned } from './lib/processes.js';

const [dist = 'dist', ...flags] = process.argv.slice(2);
const dataDir = await mkdtemp(join(tmpdir(), 'pb-b6-'));
const env = { DATA_DIR: dataDir, DATABASE_URL: '', DATABASE_SCHEMA: '' };
const start = () => startPinned([...flags, join(dist, 'main.js')], env);
const memory = (pid: number) =>
  `${rssMb(pid).toFixed(0)} MB (` +
  readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .filter((line) => /^Rss(Anon|File):/.test(line))
    .map((line) => line.replace(/\s+/g, ' '))
    .join(', ') +
  ')';

try {
  let service = await start();
  const session = await signUp(service.url);
  const page = await twentyPage(session, 'B6');
  await service.stop();
  await growLibrary({ dataDir, databaseUrl: undefined, schema: undefined }, session.userId, 100_000);
  service = await start();
  const pid = service.child.pid!;
  const auth = { authorization: `Bearer ${session.key}` };
  console.log(`after start: ${memory(pid)}`);
  await latencies(220, () => fetch(`${service.url}/api/v1/search/blocks?q=gallery`, { headers: auth }));
  console.log(`after 220 searches: ${memory(pid)}`);
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 200);
  const b1 = await load({
    url: `${service.url}/api/v1/pages/${page.id}?with_blocks=1`,
    connections: 10,
    seconds: 5,
    headers: auth,
    serverPid: pid,
  });
  clearInterval(sampler);
  console.log(
    `B1's load: peak ${peak.toFixed(0)} MB, ${b1.rps.toFixed(0)} req/s, ${b1.cpuUs?.toFixed(0)} µs/req; after: ${memory(pid)}`,
  );
  await service.stop();
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
