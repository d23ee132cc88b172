/**
 * `npm run bench:b3 -- [dist dir]`: B3 alone (the 200-block preview, warm and
 * cold, measured as in run.ts) against a production build, so that a change
 * to rendering can be compared with the build of another commit
 * (`node scripts/build.mjs /tmp/before` there, then `npm run bench:b3 -- /tmp/before`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchValues, BENCH_FIELDS, BENCH_TEMPLATE, signUp, site as newSite, v1 } from './lib/api.js';
import { latencies } from './lib/load.js';
import { startPinned } from './lib/processes.js';

const dist = process.argv[2] ?? 'dist';
const dataDir = await mkdtemp(join(tmpdir(), 'pb-b3-'));
const service = await startPinned([join(dist, 'main.js')], { DATA_DIR: dataDir });
const session = await signUp(service.url);
const siteId = await newSite(session);
const block = await v1(session, 'POST', '/blocks', {
  name: 'B3 block',
  template: BENCH_TEMPLATE,
  schema_content: BENCH_FIELDS,
});
const instances = (n: number, offset = 0) =>
  Array.from({ length: n }, (_, i) => ({ block_id: block.id, placeholder_values: benchValues(i + offset) }));
const auth = { authorization: `Bearer ${session.key}` };
const preview = (id: number) => fetch(`${service.url}/api/v1/pages/${id}/preview`, { headers: auth });
const page = await v1(session, 'POST', '/pages', { name: 'Two hundred', site_id: siteId, blocks: instances(200) });
await (await preview(page.id)).arrayBuffer();
const warm = await latencies(40, () => preview(page.id));
const cold: number[] = [];
for (let k = 1; k <= 10; k++)
  cold.push(
    (await v1(session, 'POST', '/pages', { name: `Cold ${k}`, site_id: siteId, blocks: instances(200, k * 1000) })).id,
  );
const coldRun = await latencies(cold.length, () => preview(cold.shift()!));
console.log(
  `${dist}: B3 ${warm.mean.toFixed(2)} ms mean (p95 ${warm.p95.toFixed(2)}); B3 cold ${coldRun.mean.toFixed(2)} ms mean (p95 ${coldRun.p95.toFixed(2)})`,
);
await service.stop();
await rm(dataDir, { recursive: true, force: true });
