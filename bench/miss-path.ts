/**
 * `npm run bench:miss`: the miss path of a page read (the database read and the
 * body), in process, without HTTP: the full read (every column, values parsed,
 * presentPage, the route's compiled serializer) against the answer's own read
 * (shown columns, stored JSON spliced; src/http/presenters/page-body.ts). CPU
 * µs per read of a 20-block page, on SQLite or on PostgreSQL when DATABASE_URL is set.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { dropPostgresSchema } from '../src/db/dialects/postgres.js';
import { pageBody } from '../src/http/presenters/page-body.js';
import { presentPage } from '../src/http/presenters/pages.presenter.js';
import { lazySchemaCompilers } from '../src/http/schema-compilers.js';
import { namedSchemas } from '../src/http/schemas/common.js';
import { PageSchema } from '../src/http/schemas/pages.js';
import { benchValues, BENCH_FIELDS, BENCH_TEMPLATE, signUp, site as newSite, v1 } from './lib/api.js';

const dataDir = await mkdtemp(join(tmpdir(), 'pb-miss-'));
const databaseUrl = process.env.DATABASE_URL;
const schema = databaseUrl ? `miss_${Date.now().toString(36)}` : undefined;
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
    name: 'Miss block',
    template: BENCH_TEMPLATE,
    schema_content: BENCH_FIELDS,
  });
  const page = await v1(session, 'POST', '/pages', {
    name: 'Twenty',
    site_id: siteId,
    blocks: Array.from({ length: 20 }, (_, i) => ({ block_id: block.id, placeholder_values: benchValues(i) })),
  });
  const actor = { userId: session.userId, isAdmin: false };
  const serialize = lazySchemaCompilers(namedSchemas()).serializer({
    schema: PageSchema,
    method: 'GET',
    url: '/pages/:id',
    httpStatus: '200',
  }) as (data: unknown) => string;
  const paths: Record<string, () => Promise<string>> = {
    full: async () => serialize(presentPage(await app.services.pages.get(actor, page.id, true))),
    answer: async () => pageBody(await app.services.pages.view(actor, page.id, true)),
  };
  if ((await paths.full!()) !== (await paths.answer!())) throw new Error('the two paths answer different bytes');
  const n = Number(process.env.BENCH_READS ?? 5000);
  const results: Record<string, number[]> = { full: [], answer: [] };
  for (let round = 0; round < 3; round++) {
    for (const [name, read] of Object.entries(paths)) {
      for (let i = 0; i < 500; i++) await read();
      const before = process.cpuUsage();
      for (let i = 0; i < n; i++) await read();
      const used = process.cpuUsage(before);
      results[name]!.push((used.user + used.system) / n);
    }
  }
  const best = (xs: number[]) => Math.min(...xs).toFixed(0);
  console.log(
    `miss path on ${databaseUrl ? 'PostgreSQL' : 'SQLite'}, 20 blocks, best of 3 × ${n} reads: ` +
      `full read ${best(results.full!)} µs, answer's read ${best(results.answer!)} µs CPU per read`,
  );
} finally {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
  if (databaseUrl && schema) await dropPostgresSchema(databaseUrl, schema);
}
