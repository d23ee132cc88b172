/**
 * `npm run bench:hit`: the database's part of a kept page read (B1's path once
 * its answer is kept), in process: the key lookup (with the page's version on
 * PostgreSQL) and the write generation (SQLite). CPU µs per call, best of 3
 * rounds, on SQLite or on PostgreSQL when DATABASE_URL is set. Steadier than B1
 * on a loaded machine; the whole request is B1's to show (`npm run bench:b12`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { dropPostgresSchema } from '../src/db/dialects/postgres.js';
import { benchValues, BENCH_FIELDS, BENCH_TEMPLATE, signUp, site as newSite, v1 } from './lib/api.js';

const dataDir = await mkdtemp(join(tmpdir(), 'pb-hit-'));
const databaseUrl = process.env.DATABASE_URL;
const schema = databaseUrl ? `hit_${Date.now().toString(36)}` : undefined;
const app = await buildApp(
  loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : {}),
  }),
);
try {
  await app.http.listen({ host: '127.0.0.1', port: 0 });
  const session = await signUp(`http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`);
  const siteId = await newSite(session);
  const block = await v1(session, 'POST', '/blocks', {
    name: 'Hit block',
    template: BENCH_TEMPLATE,
    schema_content: BENCH_FIELDS,
  });
  const page = await v1(session, 'POST', '/pages', {
    name: 'Twenty',
    site_id: siteId,
    blocks: Array.from({ length: 20 }, (_, i) => ({ block_id: block.id, placeholder_values: benchValues(i) })),
  });
  const request = {
    method: 'GET' as const,
    url: `/api/v1/pages/${page.id}?with_blocks=1`,
    headers: { authorization: `Bearer ${session.key}` },
  };
  const first = await app.http.inject(request);
  if (first.statusCode !== 200) throw new Error(`the read answered ${first.statusCode}`);
  const generation = app.database.writeGeneration;
  const parts: Record<string, () => unknown> = {
    key: () => app.services.apiKeys.authenticate(session.key, page.id),
    ...(generation ? { generation } : {}),
  };
  const n = Number(process.env.BENCH_READS ?? 5000);
  const results: Record<string, number[]> = {};
  for (let round = 0; round < 3; round++) {
    for (const [name, run] of Object.entries(parts)) {
      for (let i = 0; i < 500; i++) await run();
      const before = process.cpuUsage();
      for (let i = 0; i < n; i++) await run();
      const used = process.cpuUsage(before);
      (results[name] ??= []).push((used.user + used.system) / n);
    }
  }
  const best = (xs: number[]) => Math.min(...xs).toFixed(1);
  console.log(
    `hit path on ${databaseUrl ? 'PostgreSQL' : 'SQLite'}, 20 blocks, best of 3 × ${n}, CPU µs: ` +
      Object.entries(results)
        .map(([name, xs]) => `${name} ${best(xs)}`)
        .join(', '),
  );
} finally {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
  if (databaseUrl && schema) await dropPostgresSchema(databaseUrl, schema);
}
