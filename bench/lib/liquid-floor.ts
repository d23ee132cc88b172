import { spawn } from 'node:child_process';
import { SERVER_CORE } from './processes.js';

export interface FloorBlock {
  template: string;
  values: Record<string, unknown>;
}

/** One render of the page: wall-clock and CPU time, in milliseconds. */
export interface Sample {
  wallMs: number;
  cpuMs: number;
}

export interface LiquidFloor {
  render(): Promise<Sample>;
  stop(): Promise<void>;
}

/**
 * B3's floor, LiquidJS alone (`bench/liquid-floor.ts`), in a fresh process
 * pinned to the server's core with the service's Node flags, warmed up as the
 * service is: measured in the bench's own process, after seeding and beside
 * its HTTP client, it moved 7.4–14.9 ms between runs of the same code
 * (docs/decisions.md, "Performance": benchmark method).
 */
export async function startLiquidFloor(
  blocks: FloorBlock[],
  nodeFlags: string[],
  warmUp: number,
): Promise<LiquidFloor> {
  const child = spawn(
    'taskset',
    ['-c', SERVER_CORE, process.execPath, ...nodeFlags, '--import', 'tsx', 'bench/liquid-floor.ts'],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const next = () =>
    new Promise<unknown>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the LiquidJS floor exited ${code}`));
      child.once('exit', onExit);
      child.once('message', (message) => {
        child.off('exit', onExit);
        resolve(message);
      });
    });
  const ready = next();
  child.send({ blocks, warmUp });
  await ready;
  return {
    async render() {
      const sample = next();
      child.send('render');
      return (await sample) as Sample;
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
