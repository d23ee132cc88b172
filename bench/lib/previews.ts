import pg from 'pg';
import { startLiquidFloor, type LiquidFloor } from './liquid-floor.js';
import { cpuNanos } from './processes.js';

export interface Stats {
  median: number;
  mean: number;
  p95: number;
}

export const stats = (xs: number[]): Stats => {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: at(0.5), mean: xs.reduce((a, b) => a + b, 0) / xs.length, p95: at(0.95) };
};

/** A preview run beside its floor: each side's wall-clock and CPU time per page, in milliseconds. */
export interface PreviewRun {
  wall: Stats;
  /** The service's CPU (every thread, and on PostgreSQL its connections' backends) per request. */
  cpu: Stats;
  floorWall: Stats;
  floorCpu: Stats;
}

/**
 * The PostgreSQL backends serving the service: every client connection to the
 * bench's database but this one (each engineer has a database of their own).
 */
export async function postgresBackends(databaseUrl: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      `select pid from pg_stat_activity
        where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
    );
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

/**
 * `requests` one at a time, each followed by one render of the floor, so that
 * both sides see the same machine (the machine is shared: measured one after
 * the other, a side could get a quiet minute and the other a busy one). Both
 * run on the server's core; the figures are medians.
 */
export async function previewsBesideFloor(
  requests: Array<() => Promise<Response>>,
  serverPids: number[],
  floor: LiquidFloor,
): Promise<PreviewRun> {
  const wall: number[] = [];
  const cpu: number[] = [];
  const floorWall: number[] = [];
  const floorCpu: number[] = [];
  const serverCpu = () => serverPids.reduce((sum, pid) => sum + cpuNanos(pid), 0);
  for (const request of requests) {
    const cpuBefore = serverCpu();
    const started = performance.now();
    const response = await request();
    await response.arrayBuffer();
    wall.push(performance.now() - started);
    cpu.push((serverCpu() - cpuBefore) / 1e6);
    if (!response.ok) throw new Error(`status ${response.status}`);
    const sample = await floor.render();
    floorWall.push(sample.wallMs);
    floorCpu.push(sample.cpuMs);
  }
  return { wall: stats(wall), cpu: stats(cpu), floorWall: stats(floorWall), floorCpu: stats(floorCpu) };
}

export interface B3Input {
  url: string;
  key: string;
  /** The service's pid (taskset exec's into node: the child's pid is the service's). */
  pid: number;
  databaseUrl: string | undefined;
  /** Node flags the service runs with; the floor gets the same. */
  nodeFlags: string[];
  /** The blocks the pages are made of, each with its current revision, and the page's instances. */
  blocks: Array<{ current_revision: { template_content: string } }>;
  instances: (n: number, from?: number) => Array<{ block_id: number; placeholder_values: Record<string, unknown> }>;
  /** Creates a page of these instances and answers its id. */
  createPage: (name: string, blocks: unknown[]) => Promise<number>;
}

export const B3_WARM_UP = 10;
export const B3_WARM_RUNS = 40;
export const B3_COLD_WARM_UP = 5;
export const B3_COLD_RUNS = 20;

/**
 * B3: a 200-block page's preview, warm (previewed before: its instances' HTML
 * kept) and cold (pages whose values were never rendered), each request beside
 * one render of LiquidJS alone. Both sides warm up alike: the service previews
 * the page (warm) or other cold pages (cold) as many times as the floor renders
 * before measuring.
 */
export async function measureB3(input: B3Input): Promise<{ warm: PreviewRun; cold: PreviewRun }> {
  const auth = { authorization: `Bearer ${input.key}` };
  const preview = (id: number) => () => fetch(`${input.url}/api/v1/pages/${id}/preview`, { headers: auth });
  const instances = input.instances(200);
  const floor = await startLiquidFloor(
    instances.map((inst, i) => ({
      template: input.blocks[i % input.blocks.length]!.current_revision.template_content,
      values: inst.placeholder_values,
    })),
    input.nodeFlags,
    B3_WARM_UP,
  );
  try {
    const pageId = await input.createPage('Two hundred', instances);
    for (let i = 0; i < B3_WARM_UP; i++) await (await preview(pageId)()).arrayBuffer();
    const pids = async () => [input.pid, ...(input.databaseUrl ? await postgresBackends(input.databaseUrl) : [])];
    const warm = await previewsBesideFloor(
      Array.from({ length: B3_WARM_RUNS }, () => preview(pageId)),
      await pids(),
      floor,
    );
    const cold: number[] = [];
    for (let k = 1; k <= B3_COLD_WARM_UP + B3_COLD_RUNS; k++)
      cold.push(await input.createPage(`Cold ${k}`, input.instances(200, k * 1000)));
    for (const id of cold.splice(0, B3_COLD_WARM_UP)) await (await preview(id)()).arrayBuffer();
    const coldRun = await previewsBesideFloor(cold.map(preview), await pids(), floor);
    return { warm, cold: coldRun };
  } finally {
    await floor.stop();
  }
}

const ms = (n: number) => n.toFixed(2);

/** B3's two rows of the results table; the ratio that passes is the CPU time's, which other load on the machine moves least. */
export function b3Rows({ warm, cold }: { warm: PreviewRun; cold: PreviewRun }, postgres: boolean) {
  const row = (id: string, what: string, run: PreviewRun, runs: number, target: number) => ({
    id,
    what,
    figure: `CPU ${ms(run.cpu.median)} ms${postgres ? ' (service and its PostgreSQL backends)' : ''}; wall ${ms(run.wall.median)} ms (mean ${ms(run.wall.mean)}, p95 ${ms(run.wall.p95)}); medians of ${runs}`,
    floor: `CPU ${ms(run.floorCpu.median)} ms; wall ${ms(run.floorWall.median)} ms (LiquidJS alone, same templates and values, own process on the server's core, each render after one request)`,
    ratio: `${(run.cpu.median / run.floorCpu.median).toFixed(2)}x CPU (wall ${(run.wall.median / run.floorWall.median).toFixed(2)}x)`,
    target: `≤ ${target}x floor`,
    pass: run.cpu.median / run.floorCpu.median <= target,
  });
  return [
    row(
      'B3',
      'preview of a 200-block page (GET /pages/{id}/preview, end to end), previewed before: instances’ HTML kept',
      warm,
      B3_WARM_RUNS,
      1.3,
    ),
    row(
      'B3 cold',
      'the same, on pages whose values were never rendered: every instance rendered',
      cold,
      B3_COLD_RUNS,
      1.6,
    ),
  ];
}
