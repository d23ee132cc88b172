/**
 * `npm run bench:hit`: the database's part of a kept page read (B1's path once
 * its answer is kept), in process: the key lookup, with the page's version.
 * CPU µs per call, best of 3
 * rounds, on SQLite or on PostgreSQL when DATABASE_URL is set. Steadier than B1
 * on a loaded machine; the whole request is B1's to show (`npm run bench:b12`).
 */
import { cpuPerCall, inProcessPage } from './lib/in-process.js';

const { app, session, page, database, close } = await inProcessPage('hit');
try {
  const request = {
    method: 'GET' as const,
    url: `/api/v1/pages/${page.id}?with_blocks=1`,
    headers: { authorization: `Bearer ${session.key}` },
  };
  const first = await app.http.inject(request);
  if (first.statusCode !== 200) throw new Error(`the read answered ${first.statusCode}`);
  const parts: Record<string, () => unknown> = {
    key: () => app.services.apiKeys.authenticate(session.key, page.id),
    // Ten reads arriving together, as under B1's ten connections (on PostgreSQL one statement): per lookup.
    'key of 10 together': () =>
      Promise.all(Array.from({ length: 10 }, () => app.services.apiKeys.authenticate(session.key, page.id))),
  };
  const n = Number(process.env.BENCH_READS ?? 5000);
  const results = await cpuPerCall(parts, n);
  const best = (xs: number[]) => Math.min(...xs).toFixed(1);
  console.log(
    `hit path on ${database}, 20 blocks, best of 3 × ${n}, CPU µs: ` +
      Object.entries(results)
        .map(([name, xs]) => `${name} ${best(name.includes('of 10') ? xs.map((x) => x / 10) : xs)}`)
        .join(', '),
  );
} finally {
  await close();
}
