import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Server on core 0, load generator on core 1, where the machine has two. */
export const SERVER_CORE = '0';
export const LOAD_CORE = availableParallelism() > 1 ? '1' : '0';

/** Pins every thread of this process (and those it starts) to `cores`; answers the affinity it had. */
export function pin(cores: string): string {
  const before = execFileSync('taskset', ['-pc', String(process.pid)])
    .toString()
    .split(':')
    .pop()!
    .trim();
  execFileSync('taskset', ['-a', '-pc', cores, String(process.pid)], { stdio: 'ignore' });
  return before;
}

export interface Running {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `node <args>` pinned to the server core, and waits until `readyPath` answers 200. */
export async function startPinned(args: string[], env: Record<string, string>, readyPath = '/ready'): Promise<Running> {
  const script = args.join(' ');
  const port = String(20000 + Math.floor(Math.random() * 20000));
  const child = spawn('taskset', ['-c', SERVER_CORE, process.execPath, ...args], {
    env: { ...process.env, ...env, PORT: port, HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`${script} not ready: ${stderr}`);
    const ok = await fetch(`${url}${readyPath}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Resident memory of a process in MB; the pinned child is taskset's exec'd node. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/**
 * CPU time a process has used so far (user and system), in microseconds, from
 * `/proc/<pid>/stat` (clock ticks of 1/100 s). Read before and after a load run,
 * it gives the server's CPU per request, which other load on the machine barely moves.
 */
export function cpuMicros(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0; // A backend that ended meanwhile.
  }
  // The fields after the command name, which may itself hold spaces, in parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * Time a process has spent on a CPU so far, every thread of it (render threads,
 * GC helpers, libuv's pool), in nanoseconds: the first field of each live
 * thread's `/proc/<pid>/task/<tid>/schedstat`. Precise enough for one request
 * (`/proc/<pid>/stat` counts in 10 ms ticks), and unlike wall-clock time barely
 * moved by what else runs on the machine.
 */
export function cpuNanos(pid: number): number {
  let total = 0;
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  for (const tid of tasks) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return total;
}
