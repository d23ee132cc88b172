/**
 * The render pool against issue 11's budget: what rendering on worker threads
 * costs against rendering in process (B3 may not lose more than 10 %), how
 * long the main thread's event loop waits while a hostile page runs (under
 * 50 ms), and how a page over its time or heap ends. In process, from source;
 * part of `npm run bench`, alone as `npm run bench:pool`.
 */
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { PageBlockInput } from '../src/modules/publishing/publishing.js';
import { DEFAULT_POOL_OPTIONS, RenderPool } from '../src/rendering/pool.js';
import { RenderError, Renderer } from '../src/rendering/renderer.js';
import { benchValues, BENCH_TEMPLATE } from './lib/api.js';
import { pin, SERVER_CORE } from './lib/processes.js';
import { StoredJson } from '../src/shared/stored-json.js';

export interface PoolRow {
  id: string;
  what: string;
  figure: string;
  floor: string;
  ratio: string;
  target: string;
  pass: boolean;
}

const RUNS = Number(process.env.BENCH_POOL_RUNS ?? 40);
const SMALL_HEAP_MB = 64;
const fmt = (n: number, digits = 1) => n.toFixed(digits);
const load = () =>
  loadavg()
    .map((n) => fmt(n, 2))
    .join(' / ');

/**
 * The B3 page: 200 instances of ten revisions, values differing by `seed` (a new seed: nothing cached),
 * as the database gives them: parsed from their stored text, which is kept beside them.
 */
function page(seed: number): PageBlockInput[] {
  return Array.from({ length: 200 }, (_, i) => ({
    id: i + 1,
    parentId: null,
    revisionId: 1 + (i % 10),
    template: BENCH_TEMPLATE.replace('class="b"', `class="b${i % 10}"`),
    css: `.b${i % 10}{margin:${i % 10}px}`,
    js: '',
    values: StoredJson.fromText<Record<string, unknown>>(
      JSON.stringify({ ...benchValues(i), title: `Section ${i} of ${seed}` }),
    ),
    slots: {},
    blockType: 'schema',
    richtextFields: [],
  }));
}

const one = (id: number, template: string): PageBlockInput => ({
  id,
  parentId: null,
  revisionId: 1000 + id,
  template,
  css: '',
  js: '',
  values: {},
  slots: {},
  blockType: 'schema',
  richtextFields: [],
});

interface Side {
  wall: number;
  cpu: number;
}

/**
 * Two ways of rendering, run by turns (a, b, then b, a, ...) after the same
 * warm-up, so that both see the same machine; the median wall-clock and CPU
 * time (the whole process: main thread, render threads, GC) of each, in ms.
 */
async function byTurns(
  a: (run: number) => Promise<unknown>,
  b: (run: number) => Promise<unknown>,
): Promise<[Side, Side]> {
  const samples: [Side[], Side[]] = [[], []];
  const once = async (side: 0 | 1, run: number) => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    await (side === 0 ? a : b)(run);
    const used = process.cpuUsage(cpu);
    if (run >= 0) samples[side].push({ wall: performance.now() - started, cpu: (used.user + used.system) / 1000 });
  };
  for (let i = 0; i < 5; i++) for (const side of [0, 1] as const) await once(side, -1 - i);
  for (let i = 0; i < RUNS; i++) for (const side of i % 2 ? ([1, 0] as const) : ([0, 1] as const)) await once(side, i);
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  return samples.map((xs) => ({ wall: median(xs.map((x) => x.wall)), cpu: median(xs.map((x) => x.cpu)) })) as [
    Side,
    Side,
  ];
}

/** Runs `work` while the main thread's event-loop delay is recorded; the delay's p99 and max, in ms. */
async function loopDelayDuring<T>(
  work: () => Promise<T>,
): Promise<{ result: T; p99: number; max: number; ms: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  histogram.disable();
  return { result, ms, p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 };
}

async function failure(promise: Promise<unknown>): Promise<RenderError | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (error instanceof RenderError) return error;
    throw error;
  }
}

export async function renderPoolRows(): Promise<PoolRow[]> {
  const rows: PoolRow[] = [];
  const loadBefore = load();
  const inProcess = new Renderer();
  const pool = new RenderPool();
  const small = new RenderPool({
    heapMb: SMALL_HEAP_MB,
    pageBudgetMs: 600_000,
    renderer: { renderLimit: 600_000 },
  });
  try {
    // R1/R2: the same page through the pool and in process, by turns, on one core as the server runs.
    // Warm: the same values each time (instances' HTML kept, as B3 warm); cold: new values each
    // time (every instance rendered, as B3 cold).
    const unpinned = pin(SERVER_CORE);
    let r1: [Side, Side];
    let r2: [Side, Side];
    try {
      const warm = page(0);
      r1 = await byTurns(
        () => pool.renderPage(warm),
        () => inProcess.renderPage(warm),
      );
      r2 = await byTurns(
        (run) => pool.renderPage(page(1e6 + run)),
        (run) => inProcess.renderPage(page(2e6 + run)),
      );
    } finally {
      pin(unpinned);
    }
    for (const [id, what, [onPool, local]] of [
      ['R1', 'a 200-block page on the pool, warm (instances’ HTML kept)', r1],
      ['R2', 'the same, cold (new values each time: every instance rendered)', r2],
    ] as const) {
      rows.push({
        id,
        what,
        figure: `CPU ${fmt(onPool.cpu, 2)} ms, wall ${fmt(onPool.wall, 2)} ms (medians of ${RUNS}, by turns with the floor, one core)`,
        floor: `CPU ${fmt(local.cpu, 2)} ms, wall ${fmt(local.wall, 2)} ms (the same Renderer in process)`,
        ratio: `${fmt(onPool.cpu / local.cpu, 2)}x CPU (wall ${fmt(onPool.wall / local.wall, 2)}x)`,
        target: '≤ 1.10x (B3 may lose at most 10 %)',
        pass: onPool.cpu / local.cpu <= 1.1,
      });
    }

    // R3: a page whose one Liquid node sorts for ever: only the page budget stops it.
    const endless = one(1, `{% assign a = (1..100000)${' | sort'.repeat(400)} %}{{ a | size }}`);
    const hostile = await loopDelayDuring(() => failure(pool.renderPage([one(2, '<p>x</p>'), endless])));
    const after = performance.now();
    await pool.renderPage(page(0));
    const restartMs = performance.now() - after;
    rows.push({
      id: 'R3',
      what: 'a page over its time budget: time to the 422, the main event loop’s delay meanwhile, the next page after (on a new thread, which from source compiles TypeScript first)',
      figure: `422 ${hostile.result?.reason ?? 'none'} after ${fmt(hostile.ms, 0)} ms; loop delay p99 ${fmt(hostile.p99, 1)} ms, max ${fmt(hostile.max, 1)} ms; next page ${fmt(restartMs, 0)} ms`,
      floor: `${DEFAULT_POOL_OPTIONS.pageBudgetMs} ms (the budget)`,
      ratio: `${fmt(hostile.ms / DEFAULT_POOL_OPTIONS.pageBudgetMs, 2)}x budget`,
      target: 'render_limit; loop delay < 50 ms',
      pass: hostile.result?.reason === 'render_limit' && hostile.max < 50,
    });

    // R4: a page that keeps 400 arrays of 100,000 numbers (about 320 MB) within LiquidJS's allocation budget,
    // on a pool of 64 MB threads with no time limit within reach: only the heap stops it, however loaded the machine.
    const hungry = one(
      3,
      '{% assign a = (1..100000) %}' +
        Array.from({ length: 400 }, (_, i) => `{% assign k${i} = a | reverse %}`).join('') +
        '{{ k0 | size }}',
    );
    // Its threads started first (all of them at the first render, since 734e3be): what R4 measures is
    // the page over its heap and its thread's replacement, not the start of threads never used before.
    await small.renderPage([one(4, '<p>warm</p>')]);
    let peak = 0;
    const baseRss = process.memoryUsage().rss / 2 ** 20;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss / 2 ** 20)), 20);
    const heavy = await loopDelayDuring(() => failure(small.renderPage([hungry])));
    clearInterval(sampler);
    rows.push({
      id: 'R4',
      what: 'a page over its heap: time to the 422, the process’s peak RSS above its start, the loop’s delay',
      figure: `422 ${heavy.result?.reason ?? 'none'} after ${fmt(heavy.ms, 0)} ms; RSS +${fmt(peak - baseRss, 0)} MB peak; loop delay max ${fmt(heavy.max, 1)} ms`,
      floor: `${SMALL_HEAP_MB} MB (the heap cap of this pool's threads; the service's is ${DEFAULT_POOL_OPTIONS.heapMb} MB)`,
      ratio: `${fmt((peak - baseRss) / SMALL_HEAP_MB, 2)}x cap`,
      target: 'memory_limit; RSS rise ≤ 1.5x cap; loop delay < 50 ms',
      pass: heavy.result?.reason === 'memory_limit' && peak - baseRss <= 1.5 * SMALL_HEAP_MB && heavy.max < 50,
    });
  } finally {
    await Promise.all([pool.close(), small.close()]);
  }
  rows.push({
    id: 'R-',
    what: 'load average (1 / 5 / 15 min) before and after: the machine is shared, read the figures with it',
    figure: `${loadBefore} → ${load()}`,
    floor: '—',
    ratio: '—',
    target: '—',
    pass: true,
  });
  return rows;
}

export function poolTable(rows: PoolRow[]): string {
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await renderPoolRows();
  process.stdout.write(`## Render pool\n\n${poolTable(rows)}\n`);
}
