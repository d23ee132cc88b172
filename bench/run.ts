/**
 * `npm run bench`: every benchmark of the performance issue, on SQLite and, when
 * DATABASE_URL is set, on PostgreSQL, each beside its floor measured in the same
 * run. Prints the figures and writes bench/RESULTS.md. Never part of `npm test`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropPostgresSchema } from '../src/db/dialects/postgres.js';
import { benchValues, signUp, tenBlocks, site as newSite, v1 } from './lib/api.js';
import { growLibrary } from './lib/bulk.js';
import { backendsNamed, cpuSplit, namedUrl } from './lib/backends.js';
import { latencies, load } from './lib/load.js';
import { b3Rows, measureB3 } from './lib/previews.js';
import { LOAD_CORE, pin, rssMb, startPinned } from './lib/processes.js';
import { measureMix } from './lib/mix.js';
import { poolTable, renderPoolRows } from './render-pool.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
// As `npm start` and the container run it (docs/decisions.md, "Performance": the young generation).
const SERVICE = ['--max-semi-space-size=4', 'dist/main.js'];
// The floor runs from source, like the scripts; tsx compiles it once at start.
const FLOOR = ['--import', 'tsx', 'bench/floor-server.ts'];
const HTTP_FLOOR = ['--import', 'tsx', 'bench/http-floor.ts'];

interface Row {
  id: string;
  what: string;
  figure: string;
  floor: string;
  ratio: string;
  target: string;
  pass: boolean;
}

interface Target {
  name: 'SQLite' | 'PostgreSQL';
  dataDir: string;
  databaseUrl: string | undefined;
  schema: string | undefined;
}

// Always both variables: the SQLite target must not inherit the DATABASE_URL of the run.
// The service's connections are named for the run (its schema), so that B2 can count its backends' CPU.
const envOf = (t: Target): Record<string, string> => ({
  DATA_DIR: t.dataDir,
  DATABASE_URL: t.databaseUrl && t.schema ? namedUrl(t.databaseUrl, t.schema) : '',
  DATABASE_SCHEMA: t.schema ?? '',
});
const fmt = (n: number, digits = 1) => n.toFixed(digits);
/** The server's CPU per request of a load run, read from /proc (other load on the machine barely moves it). */
const cpu = (r: { cpuUs: number | undefined }) => (r.cpuUs === undefined ? 'CPU ?' : `${fmt(r.cpuUs, 0)} µs/req`);

async function benchmark(t: Target): Promise<Row[]> {
  const rows: Row[] = [];
  let service = await startPinned(SERVICE, envOf(t));
  const session = await signUp(service.url);
  const siteId = await newSite(session);
  const blocks = await tenBlocks(session, 'Bench');
  const instances = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) => ({
      block_id: blocks[i % blocks.length].id,
      placeholder_values: benchValues(from + i),
    }));
  const page20 = await v1(session, 'POST', '/pages', { name: 'Twenty', site_id: siteId, blocks: instances(20) });
  const auth = { authorization: `Bearer ${session.key}` };

  // B1 and B2 against the service.
  const b1 = await load({
    url: `${service.url}/api/v1/pages/${page20.id}?with_blocks=1`,
    connections: 10,
    seconds: SECONDS,
    headers: auth,
    serverPid: service.child.pid,
  });
  const createBody = JSON.stringify({ name: 'Created', site_id: siteId, blocks: instances(20) });
  const b2 = await load({
    url: `${service.url}/api/v1/pages`,
    connections: 10,
    seconds: SECONDS,
    method: 'POST',
    body: createBody,
    headers: { ...auth, 'content-type': 'application/json' },
    serverPid: service.child.pid,
    // The database's share of each create: on PostgreSQL its backends (SQLite's is in the Node process).
    backends: t.databaseUrl && t.schema ? () => backendsNamed(t.databaseUrl!, t.schema!) : undefined,
  });

  // B3: the 200-block preview, one request at a time, warm and cold, each request beside LiquidJS alone.
  const b3 = await measureB3({
    url: service.url,
    key: session.key,
    pid: service.child.pid!,
    databaseUrl: t.databaseUrl,
    nodeFlags: SERVICE.slice(0, -1),
    blocks,
    instances,
    createPage: async (name, blocks) => (await v1(session, 'POST', '/pages', { name, site_id: siteId, blocks })).id,
  });
  // B1's answer, for the floors that send its bytes.
  const b1BodyFile = join(t.dataDir, 'b1-body.json');
  const b1Answer = await fetch(`${service.url}/api/v1/pages/${page20.id}?with_blocks=1`, { headers: auth });
  const b1Bytes = Buffer.from(await b1Answer.arrayBuffer());
  await writeFile(b1BodyFile, b1Bytes);
  await service.stop();

  // The floors of B1 and B2: a bare Fastify process on the same core and database.
  const floor = await startPinned(FLOOR, {
    ...envOf(t),
    BENCH_B1_BODY: b1BodyFile,
    BENCH_IDS: JSON.stringify({
      ownerId: session.userId,
      siteId,
      blockId: blocks[0].id,
      revisionId: blocks[0].current_revision.id,
      snapshot: blocks[0].current_revision.schema_content,
    }),
  });
  const b1Floor = await load({
    url: `${floor.url}/floor`,
    connections: 10,
    seconds: SECONDS,
    serverPid: floor.child.pid,
  });
  // Not floors of record: what B1 cannot go below (its bytes; its bytes after the key's lookup).
  const b1BytesFloor = await load({
    url: `${floor.url}/floor/bytes`,
    connections: 10,
    seconds: SECONDS,
    serverPid: floor.child.pid,
  });
  const b1BytesKey = await load({
    url: `${floor.url}/floor/bytes-key`,
    connections: 10,
    seconds: SECONDS,
    headers: auth,
    serverPid: floor.child.pid,
  });
  const b2Floor = await load({
    url: `${floor.url}/floor`,
    connections: 10,
    seconds: SECONDS,
    method: 'POST',
    body: createBody,
    headers: { 'content-type': 'application/json' },
    serverPid: floor.child.pid,
  });
  await floor.stop();

  // B1-mix: a site of 2,000 pages read at random while an editor writes one a second, beside bare node:http.
  const mix = await measureMix({ service: SERVICE, floor: HTTP_FLOOR, env: envOf(t), pages: 2000, seconds: SECONDS });
  const mixShare = mix.reads.rps / mix.floor.rps;
  rows.push({
    id: 'B1-mix',
    what: `GET /pages/{id}?with_blocks=1 over ${mix.pages} pages of 20 blocks at random, 10 connections, while one client changes a page every second`,
    figure: `${fmt(mix.reads.rps, 0)} req/s, p99 ${mix.reads.p99} ms, ${cpu(mix.reads)} (${mix.writes} writes)${mix.reads.non2xx ? `, ${mix.reads.non2xx} non-2xx` : ''}`,
    floor: `${fmt(mix.floor.rps, 0)} req/s, ${cpu(mix.floor)} (bare node:http, a small JSON)`,
    ratio: `${fmt(100 * mixShare)} % of req/s (server CPU ${cpu(mix.reads)} vs ${cpu(mix.floor)})`,
    target: '≥ 10 % of bare node:http',
    pass: mixShare >= 0.1 && mix.reads.non2xx === 0,
  });

  // B3 counts the service's PostgreSQL backends; B1 and B2 read the Node process alone, as their floors.
  const backends = t.name === 'PostgreSQL' ? ', the Node process only, not its PostgreSQL backends' : '';
  rows.push({
    id: 'B1',
    what: 'GET /pages/{id}?with_blocks=1, 20 blocks, 10 connections',
    figure: `${fmt(b1.rps, 0)} req/s, p99 ${b1.p99} ms, ${cpu(b1)}${b1.non2xx ? `, ${b1.non2xx} non-2xx` : ''}`,
    floor:
      `${fmt(b1Floor.rps, 0)} req/s, ${cpu(b1Floor)} (bare Fastify JSON); ` +
      `bare Fastify sending B1's ${fmt(b1Bytes.length / 1024)} KB: ${cpu(b1BytesFloor)}, ` +
      `and after the key's lookup: ${cpu(b1BytesKey)}${b1BytesKey.non2xx ? ` (${b1BytesKey.non2xx} non-2xx)` : ''}`,
    ratio: `${fmt((100 * b1.rps) / b1Floor.rps)} % of req/s (server CPU ${cpu(b1)} vs ${cpu(b1Floor)}${backends})`,
    target: '≥ 35 % of floor (SQLite) and ≤ 60 µs/req; PostgreSQL ≥ 15 %',
    pass:
      b1.rps / b1Floor.rps >= (t.name === 'SQLite' ? 0.35 : 0.15) &&
      (t.name !== 'SQLite' || (b1.cpuUs ?? Infinity) <= 60) &&
      b1.non2xx === 0,
  });
  rows.push({
    id: 'B2',
    what: 'POST /pages with 20 validated blocks, 10 connections',
    figure: `${fmt(b2.rps, 0)} req/s, p99 ${b2.p99} ms, ${cpuSplit(b2)}${b2.non2xx ? `, ${b2.non2xx} non-2xx` : ''}`,
    floor: `${fmt(b2Floor.rps, 0)} req/s, ${cpu(b2Floor)} (same rows, one transaction, bare route)`,
    ratio: `${fmt((100 * b2.rps) / b2Floor.rps)} % of req/s (server CPU ${cpu(b2)} vs ${cpu(b2Floor)}${backends})`,
    target: '≥ 60 % of floor',
    pass: b2.rps / b2Floor.rps >= 0.6 && b2.non2xx === 0,
  });
  rows.push(...b3Rows(b3, t.databaseUrl !== undefined));

  // B4: search as the library grows; B6: memory under B1's load at 100k.
  const search: Record<number, { p95: number; seeding: number }> = {};
  for (const size of [1_000, 10_000, 100_000]) {
    const seeding = await growLibrary(
      { dataDir: t.dataDir, databaseUrl: t.databaseUrl, schema: t.schema },
      session.userId,
      size,
    );
    service = await startPinned(SERVICE, envOf(t));
    await latencies(20, () => fetch(`${service.url}/api/v1/search/blocks?q=gallery`, { headers: auth }));
    search[size] = {
      p95: (await latencies(200, () => fetch(`${service.url}/api/v1/search/blocks?q=gallery`, { headers: auth }))).p95,
      seeding,
    };
    if (size === 100_000) {
      let peak = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(service.child.pid!))), 200);
      const underLoad = await load({
        url: `${service.url}/api/v1/pages/${page20.id}?with_blocks=1`,
        connections: 10,
        seconds: SECONDS,
        headers: auth,
        serverPid: service.child.pid,
      });
      clearInterval(sampler);
      rows.push({
        id: 'B6',
        what: 'resident memory under B1’s load, 100k blocks in the library',
        figure: `${fmt(peak, 0)} MB peak (${fmt(underLoad.rps, 0)} req/s, ${cpu(underLoad)} meanwhile)`,
        floor: '—',
        ratio: '—',
        target: '≤ 200 MB',
        pass: peak <= 200,
      });
    }
    await service.stop();
  }
  const growth = search[100_000]!.p95 / search[1_000]!.p95;
  rows.push({
    id: 'B4',
    what: 'GET /search/blocks?q=gallery (5 % of blocks match), one request at a time',
    figure: `p95 ${fmt(search[1_000]!.p95, 2)} / ${fmt(search[10_000]!.p95, 2)} / ${fmt(search[100_000]!.p95, 2)} ms at 1k / 10k / 100k`,
    floor: `— (seeding to 100k took ${fmt(
      Object.values(search).reduce((a, s) => a + s.seeding, 0),
      0,
    )} s)`,
    ratio: `${fmt(growth, 2)}x growth 1k→100k`,
    target: `p95 ≤ ${t.name === 'SQLite' ? 10 : 15} ms at 100k; ≤ 3x growth`,
    pass: search[100_000]!.p95 <= (t.name === 'SQLite' ? 10 : 15) && growth <= 3,
  });

  // B5: cold start on the existing data (100k blocks), against `node -e`.
  const coldStarts: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const s = await startPinned(SERVICE, envOf(t), '/health');
    coldStarts.push(performance.now() - started);
    await s.stop();
  }
  const nodeFloor: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    execFileSync('taskset', ['-c', '0', process.execPath, '-e', 'console.log(1)']);
    nodeFloor.push(performance.now() - started);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  rows.push({
    id: 'B5',
    what: 'cold start: process start to the first 200, existing data dir',
    figure: `${fmt(median(coldStarts), 0)} ms (median of 3; polled every 50 ms)`,
    floor: `${fmt(median(nodeFloor), 0)} ms (node -e printing a line)`,
    ratio: `${fmt(median(coldStarts) / median(nodeFloor), 1)}x`,
    target: '≤ 1000 ms',
    pass: median(coldStarts) <= 1000,
  });
  return rows.sort((a, b) => a.id.localeCompare(b.id));
}

function table(rows: Row[]): string {
  const lines = [
    '| id | what | figure | floor | ratio | target | pass |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.id} | ${r.what} | ${r.figure} | ${r.floor} | ${r.ratio} | ${r.target} | ${r.pass ? 'yes' : '**no**'} |`,
    );
  return lines.join('\n');
}

async function main() {
  execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  // The bench's own requests (B3, B4, B5) are a client like autocannon: on the load core,
  // never beside the server on its core (fetch costs the client ~1 ms of CPU a request).
  pin(LOAD_CORE);
  const targets: Target[] = [
    { name: 'SQLite', dataDir: await mkdtemp(join(tmpdir(), 'pb-bench-')), databaseUrl: undefined, schema: undefined },
  ];
  if (process.env.DATABASE_URL) {
    targets.push({
      name: 'PostgreSQL',
      dataDir: await mkdtemp(join(tmpdir(), 'pb-bench-')),
      databaseUrl: process.env.DATABASE_URL,
      schema: `bench_${Date.now().toString(36)}`,
    });
  }
  const sections: string[] = [];
  for (const target of targets) {
    const started = performance.now();
    try {
      const rows = await benchmark(target);
      const section = `## ${target.name}\n\n${table(rows)}\n\n(${fmt((performance.now() - started) / 1000, 0)} s)`;
      process.stdout.write(`\n${section}\n`);
      sections.push(section);
    } finally {
      await rm(target.dataDir, { recursive: true, force: true });
      if (target.databaseUrl && target.schema) await dropPostgresSchema(target.databaseUrl, target.schema);
    }
  }
  {
    const started = performance.now();
    const section = `## Render pool\n\n${poolTable(await renderPoolRows())}\n\n(${fmt((performance.now() - started) / 1000, 0)} s)`;
    process.stdout.write(`\n${section}\n`);
    sections.push(section);
  }
  if (!process.env.DATABASE_URL)
    sections.push('## PostgreSQL\n\nNot run: set DATABASE_URL to a PostgreSQL database to include it.');
  const mem = /MemTotal:\s+(\d+)/.exec(execFileSync('cat', ['/proc/meminfo']).toString())?.[1];
  const header = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` on ${new Date().toISOString()}.`,
    `Machine: ${cpus().length} cores, ${fmt(Number(mem) / 1024 / 1024, 1)} GiB memory, Node.js ${process.version}. Server pinned to core 0, load generator (autocannon) and the bench's own requests to core 1, ${SECONDS} s per load run after a 2-s warm-up run that is thrown away. The service runs its production build with logs silenced (the floors log nothing either); PostgreSQL is vacuumed and analysed after the 100k bulk load, as autovacuum would. Method and decisions: docs/decisions.md, "Performance".`,
    '',
  ].join('\n');
  await writeFile('bench/RESULTS.md', `${header}\n${sections.join('\n\n')}\n`);
  process.stdout.write('\nwritten to bench/RESULTS.md\n');
}

await main();
