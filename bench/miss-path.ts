/**
 * `npm run bench:miss`: the miss path of a page read (the database read and the
 * body), in process, without HTTP: the full read (every column, values parsed,
 * presentPage, the route's compiled serializer) against the answer's own read
 * (shown columns, stored JSON spliced; src/http/presenters/page-body.ts). CPU
 * µs per read of a 20-block page, on SQLite or on PostgreSQL when DATABASE_URL is set.
 */
import { pageBody } from '../src/http/presenters/page-body.js';
import { presentPage } from '../src/http/presenters/pages.presenter.js';
import { lazySchemaCompilers } from '../src/http/schema-compilers.js';
import { namedSchemas } from '../src/http/schemas/common.js';
import { PageSchema } from '../src/http/schemas/pages.js';
import { cpuPerCall, inProcessPage } from './lib/in-process.js';

const { app, session, page, database, close } = await inProcessPage('miss');
try {
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
  const results = await cpuPerCall(paths, n);
  const best = (xs: number[]) => Math.min(...xs).toFixed(0);
  console.log(
    `miss path on ${database}, 20 blocks, best of 3 × ${n} reads: ` +
      `full read ${best(results.full!)} µs, answer's read ${best(results.answer!)} µs CPU per read`,
  );
} finally {
  await close();
}
