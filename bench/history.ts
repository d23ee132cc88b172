/**
 * `npm run bench:history -- [dist dir]`: the page history's row (H1) and its
 * storage, against a production build, on SQLite, or on PostgreSQL when
 * DATABASE_URL is set.
 * - H1: one request at a time, the list of a page's 100 versions
 *   (`GET /pages/{id}/versions?limit=100`) and the diff of two versions of a
 *   200-block page (`GET /pages/{id}/versions/{n}/diff?to=m`, 50 versions
 *   apart), p95 of each; target under 20 ms.
 * - Bytes per version: 100 versions of the 200-block page, each changing one
 *   value of one instance (`PUT /pages/{id}/blocks/{pbId}`), as the database
 *   grew for them (SQLite: the file's pages; PostgreSQL: the history tables'
 *   relations, indexes and TOAST included), and the stored text they hold.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { sql } from 'kysely';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/db/database.js';
import { dropPostgresSchema } from '../src/db/dialects/postgres.js';
import { benchValues, signUp, tenBlocks, site as newSite, v1, type Session } from './lib/api.js';
import { latencies } from './lib/load.js';
import { startPinned } from './lib/processes.js';

const dist = process.argv[2] ?? 'dist';
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const dataDir = await mkdtemp(join(tmpdir(), 'pb-history-'));
const databaseUrl = process.env.DATABASE_URL ?? '';
const schema = databaseUrl ? `hist_${Date.now().toString(36)}` : '';
const service = await startPinned(['--max-semi-space-size=4', join(dist, 'main.js')], {
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl,
  DATABASE_SCHEMA: schema,
});
const database = await openDatabase({
  databaseUrl: databaseUrl || undefined,
  databaseSchema: schema || undefined,
  dataDir,
});

/** What the database holds for the page's history, in bytes. */
async function stored(): Promise<number> {
  if (databaseUrl) {
    const { rows } = await sql<{ n: string }>`select pg_total_relation_size('page_versions')
      + pg_total_relation_size('page_block_states') as n`.execute(database.db);
    return Number(rows[0]!.n);
  }
  const count = await sql<{ page_count: number }>`pragma page_count`.execute(database.db);
  const size = await sql<{ page_size: number }>`pragma page_size`.execute(database.db);
  return Number(count.rows[0]!.page_count) * Number(size.rows[0]!.page_size);
}

/** The text a page's versions and their states hold, in characters. */
async function text(pageId: number) {
  const versions = await database.db
    .selectFrom('page_versions')
    .select(['blocks', 'summary', 'name'])
    .where('page_id', '=', pageId)
    .execute();
  const states = await database.db
    .selectFrom('page_block_states')
    .select(['placeholder_values', 'bindings'])
    .where('page_id', '=', pageId)
    .execute();
  return {
    versions: versions.length,
    list: versions.reduce((n, v) => n + v.blocks.length + v.summary.length + v.name.length, 0),
    states: states.length,
    values: states.reduce((n, s) => n + s.placeholder_values.length + (s.bindings?.length ?? 0), 0),
  };
}

const get = (s: Session, path: string) => () =>
  fetch(`${s.url}/api/v1${path}`, { headers: { authorization: `Bearer ${s.key}` } });

try {
  const session = await signUp(service.url);
  const siteId = await newSite(session);
  const blocks = await tenBlocks(session, 'History');
  const instances = Array.from({ length: 200 }, (_, i) => ({
    block_id: blocks[i % 10].id,
    placeholder_values: benchValues(i),
  }));
  const page = await v1(session, 'POST', '/pages', { name: 'Two hundred', site_id: siteId, blocks: instances });
  const ids: number[] = page.blocks.map((b: { id: number }) => b.id);
  const before = await stored();
  const created = await text(page.id);
  for (let i = 1; i <= 100; i++) {
    const at = (i * 37) % 200;
    await v1(session, 'PUT', `/pages/${page.id}/blocks/${ids[at]}`, {
      placeholder_values: { ...benchValues(at), title: `Section ${at}, edit ${i}` },
    });
  }
  const after = await stored();
  const grown = await text(page.id);
  const perVersion = (after - before) / 100;
  const listChars = (grown.list - created.list) / 100;
  const valueChars = (grown.values - created.values) / 100;
  // The same 100 edits copying every instance's values each time would store this much text a version.
  const wholePage = created.values;

  // H1: the list of 100 of its versions, and a diff across 50 of them.
  const list = await latencies(RUNS, get(session, `/pages/${page.id}/versions?limit=100`));
  const diff = await latencies(RUNS, get(session, `/pages/${page.id}/versions/20/diff?to=70`));
  const ms = (n: number) => n.toFixed(2);
  const where = databaseUrl ? 'PostgreSQL' : 'SQLite';
  console.log(
    `H1 ${where} (${dist}): version list of 100 versions p95 ${ms(list.p95)} ms (p50 ${ms(list.p50)}); ` +
      `diff of two versions of a 200-block page p95 ${ms(diff.p95)} ms (p50 ${ms(diff.p50)}); ${RUNS} requests each, one at a time; target p95 < 20 ms`,
  );
  console.log(
    `bytes per version ${where}: ${perVersion.toFixed(0)} B stored (${databaseUrl ? 'history relations, indexes and TOAST' : "the file's pages"}) ` +
      `for a one-value change of a 200-block page; text: ${listChars.toFixed(0)} characters of list and metadata, ` +
      `${valueChars.toFixed(0)} of values (${grown.states - created.states} states kept for 100 edits: version 1 pruned at 101, its own state with it), ` +
      `against ${wholePage} characters of values for the whole page`,
  );
} finally {
  await service.stop();
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
  if (databaseUrl && schema) await dropPostgresSchema(databaseUrl, schema);
}
