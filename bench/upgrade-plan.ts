/**
 * `npm run bench:upgrades`: issue 29's rows, on SQLite, or on PostgreSQL when
 * DATABASE_URL is set. The service is its own process (`dist/main.js`, built
 * first), so that its resident memory is its own, not the bench client's.
 * 10,000 instances of one block on 500 pages (20 each), then a minor change
 * (a tightened max_length that one instance in ten breaks, and a new template):
 * - U1: the upgrade plan's summary and first 50 entries, HTML included
 *   (`GET /blocks/{id}/upgrade-plan?limit=50`): the first call (every entry
 *   rendered before and after), then BENCH_RUNS more (p50, p95); target p95 ≤ 2 s.
 * - U2: upgrading everywhere (`POST /blocks/{id}/upgrades`), once; target ≤ 10 s.
 * - U3: reverting that set (`POST /upgrade-sets/{id}/revert`), once.
 * - The service's peak resident memory (VmRSS of its process, sampled every
 *   20 ms) during U1 and during U2; target ≤ 256 MB.
 * BENCH_PROFILE=1 starts the service with --cpu-prof and prints the functions
 * with the most self time on its main thread.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { dropPostgresSchema } from '../src/db/dialects/postgres.js';
import { BENCH_FIELDS, BENCH_TEMPLATE, benchValues, signUp, site as newSite, v1 } from './lib/api.js';
import { rssMb, startPinned } from './lib/processes.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const PAGES = 500;
const PER_PAGE = 20;
const PROFILE = process.env.BENCH_PROFILE === '1';

execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
const dataDir = await mkdtemp(join(tmpdir(), 'pb-upgrades-'));
const profileDir = await mkdtemp(join(tmpdir(), 'pb-upgrades-prof-'));
const databaseUrl = process.env.DATABASE_URL;
const schema = databaseUrl ? `upgrades_${Date.now().toString(36)}` : undefined;
const service = await startPinned(
  ['--max-semi-space-size=4', ...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), 'dist/main.js'],
  { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema! } : {}) },
);
const pid = service.child.pid!;

/** The service's peak RSS while `work` runs. */
async function peakDuring<T>(work: () => Promise<T>): Promise<{ result: T; mb: number }> {
  let peak = rssMb(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
  try {
    const result = await work();
    return { result, mb: Math.max(peak, rssMb(pid)) };
  } finally {
    clearInterval(sampler);
  }
}

const started = performance.now();
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const ms = (x: number) => `${x.toFixed(0)} ms`;
const mbOf = (x: number) => `${x.toFixed(0)} MB`;

try {
  const session = await signUp(service.url);
  const siteId = await newSite(session);
  const block = await v1(session, 'POST', '/blocks', {
    name: 'Upgrade bench',
    template: BENCH_TEMPLATE,
    schema_content: BENCH_FIELDS,
  });
  const seeding = performance.now();
  for (let p = 0; p < PAGES; p++) {
    const page = await v1(session, 'POST', '/pages', {
      name: `Page ${p}`,
      site_id: siteId,
      blocks: Array.from({ length: PER_PAGE }, (_, i) => {
        const n = p * PER_PAGE + i;
        // One instance in ten holds a title longer than the new max_length.
        const values = benchValues(n);
        return {
          block_id: block.id,
          placeholder_values: n % 10 === 0 ? { ...values, title: `A longer title ${n}` } : values,
        };
      }),
    });
    if (!page.id) throw new Error(`page ${p}: ${JSON.stringify(page).slice(0, 300)}`);
  }
  const seeded = performance.now() - seeding;
  const seededRss = rssMb(pid);
  const tightened = BENCH_FIELDS.map((f) => (f.name === 'title' ? { ...f, max_length: 16 } : f));
  const updated = await v1(session, 'PUT', `/blocks/${block.id}`, {
    schema_content: tightened,
    template: BENCH_TEMPLATE.replace('<h2>', '<h2 class="t">'),
  });
  if (updated.version_bump !== 'minor') throw new Error(JSON.stringify(updated).slice(0, 300));

  const planOnce = async () => {
    const t0 = performance.now();
    const plan = await v1(session, 'GET', `/blocks/${block.id}/upgrade-plan?limit=50`);
    const took = performance.now() - t0;
    if (plan.data?.length !== 50 || plan.summary.behind !== PAGES * PER_PAGE)
      throw new Error(JSON.stringify(plan).slice(0, 300));
    return { took, plan };
  };
  const planned = await peakDuring(async () => {
    const first = await planOnce();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push((await planOnce()).took);
    return { first, times };
  });
  const { first, times } = planned.result;
  const { summary } = first.plan;

  const t1 = performance.now();
  const applied = await peakDuring(() => v1(session, 'POST', `/blocks/${block.id}/upgrades`, {}));
  const took = performance.now() - t1;
  const set = applied.result;
  if (!set.id) throw new Error(JSON.stringify(set).slice(0, 300));
  const t2 = performance.now();
  const undone = await peakDuring(() => v1(session, 'POST', `/upgrade-sets/${set.id}/revert`, {}));
  const reverted = undone.result;
  const tookBack = performance.now() - t2;
  if (!reverted.reverted_at) throw new Error(JSON.stringify(reverted).slice(0, 300));

  const p95 = pct(times, 95);
  const peak = Math.max(planned.mb, applied.mb);
  const db = databaseUrl ? 'PostgreSQL' : 'SQLite';
  console.log(`## Upgrades (${db}; ${PAGES} pages × ${PER_PAGE} instances seeded in ${ms(seeded)})\n`);
  console.log('| id | what | figure | target | pass |');
  console.log('| --- | --- | --- | --- | --- |');
  console.log(
    `| U1 | upgrade plan, summary + first 50 entries with HTML before and after (${summary.behind} behind, ${summary.blocked.instances} blocked, ${summary.minor} minor) | first call ${ms(first.took)}; then p50 ${ms(pct(times, 50))}, p95 ${ms(p95)} (${RUNS} calls) | p95 ≤ 2 s | ${p95 <= 2000 ? 'yes' : '**no**'} |`,
  );
  console.log(
    `| U2 | upgrade everywhere: ${set.upgraded.length} instances on ${set.pages.length} pages, one transaction | ${ms(took)} | ≤ 10 s | ${took <= 10_000 ? 'yes' : '**no**'} |`,
  );
  console.log(`| U3 | revert of that set: ${reverted.pages.length} pages | ${ms(tookBack)} | — | — |`);
  console.log(
    `| U- | the service's peak resident memory (its process alone): during U1 ${mbOf(planned.mb)}, during U2 ${mbOf(applied.mb)}, during U3 ${mbOf(undone.mb)} (${mbOf(seededRss)} once seeded) | ${mbOf(peak)} | ≤ 256 MB | ${peak <= 256 ? 'yes' : '**no**'} |`,
  );
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s)`);
} finally {
  await service.stop();
  await rm(dataDir, { recursive: true, force: true });
  if (databaseUrl && schema) await dropPostgresSchema(databaseUrl, schema);
}

if (PROFILE) {
  interface Node {
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
  for (const [key, hits] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log(`${((100 * hits) / total).toFixed(1).padStart(5)} %  ${key}`);
  console.log(`profile: ${join(profileDir, file)}`);
}
