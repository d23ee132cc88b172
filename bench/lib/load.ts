import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { cpuMicros, LOAD_CORE } from './processes.js';

const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** The server's CPU time per request in microseconds, when its pid was given. */
  cpuUs: number | undefined;
  /** Its database's share: the PostgreSQL backends' CPU per request, when they were given (SQLite's is in cpuUs). */
  dbCpuUs?: number | undefined;
}

type LoadInput = {
  url: string;
  connections: number;
  seconds: number;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  /** The server process, whose CPU time is read before and after the measured run. */
  serverPid?: number | undefined;
  /** The PostgreSQL backends serving it, listed after the warm-up run (the pool has opened them by then). */
  backends?: (() => Promise<number[]>) | undefined;
};

/**
 * autocannon in its own process on the load core, JSON out. A first run of two
 * seconds is thrown away: the first second of a fresh process is several times
 * slower than the rest (JIT), for the service and the floor alike.
 */
export async function load(input: LoadInput): Promise<LoadResult> {
  await run({ ...input, seconds: 2 });
  const backends = (await input.backends?.()) ?? [];
  const dbCpu = () => backends.reduce((sum, pid) => sum + cpuMicros(pid), 0);
  const before = input.serverPid === undefined ? 0 : cpuMicros(input.serverPid);
  const dbBefore = dbCpu();
  const result = await run(input);
  if (input.serverPid !== undefined && result.requests > 0)
    result.cpuUs = (cpuMicros(input.serverPid) - before) / result.requests;
  if (input.backends && result.requests > 0) result.dbCpuUs = (dbCpu() - dbBefore) / result.requests;
  return result;
}

async function run(input: LoadInput): Promise<LoadResult & { requests: number }> {
  const args = [
    '-c',
    LOAD_CORE,
    process.execPath,
    autocannonBin,
    '--json',
    '-c',
    String(input.connections),
    '-d',
    String(input.seconds),
  ];
  if (input.method) args.push('-m', input.method);
  if (input.body) args.push('-b', input.body);
  for (const [k, v] of Object.entries(input.headers ?? {})) args.push('-H', `${k}=${v}`);
  args.push(input.url);
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('taskset', args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.on('data', (chunk) => (text += String(chunk)));
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`autocannon exited ${code}`))));
  });
  const json = JSON.parse(out) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
  };
  return {
    rps: json.requests.average,
    p50: json.latency.p50,
    p99: json.latency.p99,
    errors: json.errors,
    non2xx: json.non2xx,
    requests: json.requests.total,
    cpuUs: undefined,
  };
}

/** Sequential requests, one at a time: exact percentiles of single-request latency (ms). */
export async function latencies(
  n: number,
  request: () => Promise<Response>,
): Promise<{ p50: number; p95: number; mean: number }> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const response = await request();
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`status ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p95: at(0.95), mean: times.reduce((a, b) => a + b, 0) / times.length };
}
