/**
 * autocannon over random paths, in a process of its own (started pinned to the
 * load core by `randomLoad`): each request reads one of BENCH_PATHS at random.
 * The autocannon CLI sends one path only. Prints autocannon's JSON result.
 */
import { createRequire } from 'node:module';

// autocannon ships no types: only the options and the result fields used here.
type Request = { path?: string };
const autocannon = createRequire(import.meta.url)('autocannon') as (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
  requests: Array<{ setupRequest: (request: Request) => Request }>;
}) => Promise<unknown>;

const paths = JSON.parse(process.env.BENCH_PATHS!) as string[];
const result = await autocannon({
  url: process.env.BENCH_URL!,
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  duration: Number(process.env.BENCH_SECONDS ?? 5),
  headers: JSON.parse(process.env.BENCH_HEADERS ?? '{}') as Record<string, string>,
  requests: [
    { setupRequest: (request: Request) => ({ ...request, path: paths[Math.floor(Math.random() * paths.length)]! }) },
  ],
});
process.stdout.write(JSON.stringify(result));
