import { spawn } from 'node:child_process';
import { benchValues, signUp, tenBlocks, site as newSite, v1, type Session } from './api.js';
import { cpuMicros, LOAD_CORE, startPinned } from './processes.js';

export interface MixResult {
  pages: number;
  /** The service under random reads while one client writes a page every second. */
  reads: { rps: number; p99: number; cpuUs: number | undefined; non2xx: number; errors: number };
  writes: number;
  /** Bare node:http under the same load, on the same core. */
  floor: { rps: number; cpuUs: number | undefined };
  /** The size of one page's answer (with blocks). */
  answerBytes: number;
  /** With METRICS=1 in `env`: the kept answers' hit ratio over the measured run and bytes after it (/metrics). */
  kept?: { hitRatio: number; bytes: number };
}

interface LoadOut {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
  cpuUs: number | undefined;
}

/** Random reads of `paths` for `seconds`, after a 2-s warm-up that is thrown away (see load.ts). */
async function randomLoad(
  url: string,
  paths: string[],
  seconds: number,
  headers: Record<string, string>,
  pid: number,
  measured?: () => Promise<unknown>,
) {
  const once = (s: number) =>
    new Promise<{
      requests: { average: number; total: number };
      latency: { p99: number };
      non2xx: number;
      errors: number;
    }>((resolve, reject) => {
      const child = spawn(
        'taskset',
        ['-c', LOAD_CORE, process.execPath, '--import', 'tsx', 'bench/lib/random-load.ts'],
        {
          env: {
            ...process.env,
            BENCH_URL: url,
            BENCH_PATHS: JSON.stringify(paths),
            BENCH_SECONDS: String(s),
            BENCH_HEADERS: JSON.stringify(headers),
          },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let text = '';
      child.stdout.on('data', (chunk) => (text += String(chunk)));
      child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(text)) : reject(new Error(`load exited ${code}`))));
    });
  await once(2);
  await measured?.();
  const before = cpuMicros(pid);
  const r = await once(seconds);
  const out: LoadOut = {
    rps: r.requests.average,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    cpuUs: r.requests.total > 0 ? (cpuMicros(pid) - before) / r.requests.total : undefined,
  };
  return out;
}

/** Creates `n` pages of 20 blocks, a few at a time; answers each page's id and its first instance's. */
async function seed(session: Session, n: number): Promise<Array<{ id: number; instance: number }>> {
  const siteId = await newSite(session);
  const blocks = await tenBlocks(session, 'Mix');
  const pages: Array<{ id: number; instance: number }> = [];
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const blocksOf = Array.from({ length: 20 }, (_, j) => ({
        block_id: blocks[j % 10].id,
        placeholder_values: benchValues(i * 20 + j),
      }));
      const page = await v1(session, 'POST', '/pages', { name: `Mix ${i}`, site_id: siteId, blocks: blocksOf });
      pages.push({ id: page.id, instance: page.blocks[0].id });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return pages;
}

/**
 * B1-mix: random reads over `pages` pages of 20 blocks (10 connections), while
 * one client changes a random page's first instance every second (an editor at
 * work), then bare node:http under the same load. Reads every page once first,
 * as a site's pages are read before a burst. The server's CPU per read counts
 * the writes' too (one a second: a few ms of the run's seconds).
 */
export async function measureMix(options: {
  service: string[];
  floor: string[];
  env: Record<string, string>;
  pages: number;
  seconds: number;
}): Promise<MixResult> {
  const service = await startPinned(options.service, options.env);
  let writes = 0;
  let reads: LoadOut;
  let answerBytes = 0;
  let kept: MixResult['kept'];
  try {
    const session = await signUp(service.url);
    const pages = await seed(session, options.pages);
    const headers = { authorization: `Bearer ${session.key}` };
    const paths = pages.map((p) => `/api/v1/pages/${p.id}?with_blocks=1`);
    for (const path of paths) {
      const r = await fetch(`${service.url}${path}`, { headers });
      answerBytes = (await r.arrayBuffer()).byteLength;
    }
    const writer = setInterval(() => {
      const page = pages[Math.floor(Math.random() * pages.length)]!;
      void v1(session, 'PUT', `/pages/${page.id}/blocks/${page.instance}`, {
        placeholder_values: benchValues(Math.floor(Math.random() * 1e6)),
      }).then(() => writes++);
    }, 1000);
    const metrics = async () => {
      if (!options.env.METRICS) return undefined;
      const text = await (await fetch(`${service.url}/metrics`)).text();
      const value = (pattern: string) => Number(new RegExp(`^${pattern} (\\S+)`, 'm').exec(text)?.[1] ?? 0);
      return {
        hits: value('pageblocks_page_reads_total\\{cache="hit"\\}'),
        misses: value('pageblocks_page_reads_total\\{cache="miss"\\}'),
        bytes: value('pageblocks_page_cache\\{measure="bytes"\\}'),
      };
    };
    let start: Awaited<ReturnType<typeof metrics>>;
    try {
      const pid = service.child.pid!;
      reads = await randomLoad(
        service.url,
        paths,
        options.seconds,
        headers,
        pid,
        async () => (start = await metrics()),
      );
    } finally {
      clearInterval(writer);
    }
    const end = await metrics();
    if (start && end) {
      const hits = end.hits - start.hits;
      kept = { hitRatio: hits / Math.max(1, hits + end.misses - start.misses), bytes: end.bytes };
    }
  } finally {
    await service.stop();
  }
  const floorProcess = await startPinned(options.floor, {});
  try {
    const floor = await randomLoad(floorProcess.url, ['/floor'], options.seconds, {}, floorProcess.child.pid!);
    return { pages: options.pages, reads, writes, floor, answerBytes, ...(kept && { kept }) };
  } finally {
    await floorProcess.stop();
  }
}

/** The result in one line. */
export function mixLine(r: MixResult): string {
  const us = (x: number | undefined) => (x === undefined ? '?' : x.toFixed(0));
  return (
    `${r.reads.rps.toFixed(0)} reads/s (${((100 * r.reads.rps) / r.floor.rps).toFixed(1)} % of bare node:http's ` +
    `${r.floor.rps.toFixed(0)}), ${us(r.reads.cpuUs)} µs server CPU a read (node:http ${us(r.floor.cpuUs)}), ` +
    `p99 ${r.reads.p99} ms, ${r.writes} writes, ${r.pages} pages of ${(r.answerBytes / 1024).toFixed(1)} KB` +
    (r.kept ? `, hit ratio ${r.kept.hitRatio.toFixed(4)}, ${(r.kept.bytes / 2 ** 20).toFixed(1)} MB kept` : '') +
    (r.reads.non2xx || r.reads.errors ? `, ${r.reads.non2xx} non-2xx, ${r.reads.errors} errors` : '')
  );
}
