/**
 * `npm run bench:webhooks`: the time from a write to its webhook delivery, on
 * SQLite, or on PostgreSQL when DATABASE_URL is set. The service runs from
 * source, pinned to the server core; a receiver on loopback takes each
 * delivery (200) and notes when it came. WEBHOOK_WRITES page updates
 * (`PUT /pages/{id}`, 200 by default) are sent one every 50 ms, first on a
 * quiet service, then under B1's load (GET /pages/{id}?with_blocks=1, 10
 * connections, autocannon on the load core). Prints, for each, the writes,
 * the deliveries (each exactly once?), and p50, p95 and max of the time from
 * sending the write to the delivery's arrival.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { dropPostgresSchema } from '../src/db/dialects/postgres.js';
import { benchValues, signUp, site as newSite, tenBlocks, v1 } from './lib/api.js';
import { load } from './lib/load.js';
import { startPinned } from './lib/processes.js';

const WRITES = Number(process.env.WEBHOOK_WRITES ?? 200);
const dataDir = await mkdtemp(join(tmpdir(), 'pb-webhooks-'));
const databaseUrl = process.env.DATABASE_URL ?? '';
const schema = databaseUrl ? `hooks_${Date.now().toString(36)}` : '';

const arrived = new Map<string, { at: number; count: number }>();
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const at = performance.now();
    const name = String((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { name: string } }).data.name);
    const seen = arrived.get(name);
    arrived.set(name, { at: seen?.at ?? at, count: (seen?.count ?? 0) + 1 });
    response.end('ok');
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const service = await startPinned(['--import', 'tsx', 'src/main.ts'], {
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl,
  DATABASE_SCHEMA: schema,
  PROVIDER_ALLOW_PRIVATE: '1',
  JOB_POLL_SECONDS: '0.5',
});
try {
  const session = await signUp(service.url);
  const siteId = await newSite(session);
  const blocks = await tenBlocks(session, 'hooks');
  const page20 = await v1(session, 'POST', '/pages', {
    name: 'Twenty',
    site_id: siteId,
    blocks: Array.from({ length: 20 }, (_, i) => ({
      block_id: blocks[i % blocks.length].id,
      placeholder_values: benchValues(i),
    })),
  });
  const target = await v1(session, 'POST', '/pages', { name: 'target', site_id: siteId });
  await v1(session, 'POST', '/webhooks', { url: receiverUrl, events: ['page.updated'] });

  async function round(label: string) {
    const sent = new Map<string, number>();
    for (let i = 0; i < WRITES; i++) {
      const name = `${label}-${i}`;
      sent.set(name, performance.now());
      await v1(session, 'PUT', `/pages/${target.id}`, { name });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const deadline = Date.now() + 60_000;
    while ([...sent.keys()].some((name) => !arrived.has(name)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const times = [...sent].flatMap(([name, at]) => {
      const got = arrived.get(name);
      return got ? [got.at - at] : [];
    });
    times.sort((a, b) => a - b);
    const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? NaN;
    const once = [...sent.keys()].filter((name) => arrived.get(name)?.count === 1).length;
    console.log(
      `${label}: ${WRITES} writes, ${times.length} delivered (${once} exactly once); write → delivery ` +
        `p50 ${q(0.5).toFixed(1)} ms, p95 ${q(0.95).toFixed(1)} ms, max ${(times.at(-1) ?? NaN).toFixed(1)} ms`,
    );
  }

  await round('quiet');
  const seconds = Math.ceil((WRITES * 60) / 1000) + 10;
  const b1 = load({
    url: `${service.url}/api/v1/pages/${page20.id}?with_blocks=1`,
    connections: 10,
    seconds,
    headers: { authorization: `Bearer ${session.key}` },
  });
  // load() warms up for two seconds first.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  await round('under B1');
  const result = await b1;
  console.log(`B1 meanwhile: ${Math.round(result.rps)} req/s, p99 ${result.p99} ms`);
} finally {
  await service.stop();
  receiver.close();
  await rm(dataDir, { recursive: true, force: true });
  if (schema) await dropPostgresSchema(databaseUrl, schema);
}
