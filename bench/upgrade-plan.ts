/**
 * `npm run bench:upgrades`: issue 29's rows, in process, on SQLite, or on
 * PostgreSQL when DATABASE_URL is set. 10,000 instances of one block on 500
 * pages (20 each), then a minor change (a tightened max_length that one
 * instance in ten breaks, and a new template):
 * - U1: the upgrade plan's summary and first 50 entries, HTML included
 *   (`GET /blocks/{id}/upgrade-plan?limit=50`): the first call (every entry
 *   rendered before and after), then BENCH_RUNS more (p50, p95); target p95 ≤ 2 s.
 * - U2: upgrading everywhere (`POST /blocks/{id}/upgrades`), once; target ≤ 10 s.
 * - U3: reverting that set (`POST /upgrade-sets/{id}/revert`), once.
 * - The process's peak resident memory through all of it; target ≤ 256 MB.
 */
import { performance } from 'node:perf_hooks';
import { BENCH_FIELDS, BENCH_TEMPLATE, benchValues, site as newSite, v1 } from './lib/api.js';
import { inProcessPage } from './lib/in-process.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const PAGES = 500;
const PER_PAGE = 20;

let peak = process.memoryUsage.rss();
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
const started = performance.now();
const { session, database, close } = await inProcessPage('upgrades');
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const ms = (x: number) => `${x.toFixed(0)} ms`;

try {
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
  const first = await planOnce();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push((await planOnce()).took);
  const { summary } = first.plan;

  const t1 = performance.now();
  const set = await v1(session, 'POST', `/blocks/${block.id}/upgrades`, {});
  const applied = performance.now() - t1;
  if (!set.id) throw new Error(JSON.stringify(set).slice(0, 300));
  const t2 = performance.now();
  const reverted = await v1(session, 'POST', `/upgrade-sets/${set.id}/revert`, {});
  const undone = performance.now() - t2;
  if (!reverted.reverted_at) throw new Error(JSON.stringify(reverted).slice(0, 300));
  clearInterval(sampler);

  const p95 = pct(times, 95);
  const mb = peak / 1024 / 1024;
  console.log(`## Upgrades (${database}; ${PAGES} pages × ${PER_PAGE} instances seeded in ${ms(seeded)})\n`);
  console.log('| id | what | figure | target | pass |');
  console.log('| --- | --- | --- | --- | --- |');
  console.log(
    `| U1 | upgrade plan, summary + first 50 entries with HTML before and after (${summary.behind} behind, ${summary.blocked.instances} blocked, ${summary.minor} minor) | first call ${ms(first.took)}; then p50 ${ms(pct(times, 50))}, p95 ${ms(p95)} (${RUNS} calls) | p95 ≤ 2 s | ${p95 <= 2000 ? 'yes' : '**no**'} |`,
  );
  console.log(
    `| U2 | upgrade everywhere: ${set.upgraded.length} instances on ${set.pages.length} pages, one transaction | ${ms(applied)} | ≤ 10 s | ${applied <= 10_000 ? 'yes' : '**no**'} |`,
  );
  console.log(`| U3 | revert of that set: ${reverted.pages.length} pages | ${ms(undone)} | — | — |`);
  console.log(
    `| U- | peak resident memory of the process (service and bench client) | ${mb.toFixed(0)} MB | ≤ 256 MB | ${mb <= 256 ? 'yes' : '**no**'} |`,
  );
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s)`);
} finally {
  clearInterval(sampler);
  await close();
}
