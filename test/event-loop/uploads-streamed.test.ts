/**
 * Large uploads are streamed: eight 90 MB uploads by one user at once neither
 * fill the process's memory nor hold its event loop. The app runs in this
 * process, so its memory and its loop are measured here; the client writes
 * each body as it goes (one 64 KiB buffer), so the memory measured is the
 * server's. Its own vitest project (run last, alone): timing is measured.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser } from '../support/factories.js';
import { startS3, type FakeS3 } from '../support/s3.js';
import { streamUpload } from '../support/streamed-upload.js';

const MB = 1024 * 1024;
const UPLOADS = 8;
const SIZE = 90 * MB;
/** Generous: the issue measured 1.4 GB of growth for these uploads read whole. */
const GROWTH_MB = 150;
/** The longest the loop may be held once: the issue measured 1.7 s. */
const STALL_MS = 300;

async function run(t: TestApp, label: string) {
  const user = await newUser(t);
  const site = await newSite(t, user);
  const url = `${t.url}/api/v1/sites/${site.id}/s3/upload`;
  // Warm the route once (its modules load on first use), then measure from there.
  expect((await streamUpload(url, { key: user.key, size: 64 * 1024 }).answer).status).toBe(201);
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed + before.external + before.arrayBuffers;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed + now.external + now.arrayBuffers);
  }, 20);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: UPLOADS }, () => streamUpload(url, { key: user.key, size: SIZE }).answer),
  );
  const seconds = (performance.now() - started) / 1000;
  loop.disable();
  clearInterval(sampler);
  const rssGrowth = (peakRss - before.rss) / MB;
  const heapGrowth = (peakHeap - (before.heapUsed + before.external + before.arrayBuffers)) / MB;
  const maxStall = loop.max / 1e6;
  console.log(
    `${label}: ${UPLOADS} x ${SIZE / MB} MB in ${seconds.toFixed(1)} s; rss ${(before.rss / MB).toFixed(0)} MB, ` +
      `peak growth rss ${rssGrowth.toFixed(0)} MB, heap+external ${heapGrowth.toFixed(0)} MB; ` +
      `loop delay p50 ${(loop.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${maxStall.toFixed(1)} ms`,
  );
  expect(answers.map((a) => a.status)).toEqual(Array(UPLOADS).fill(201));
  expect(rssGrowth).toBeLessThan(GROWTH_MB);
  expect(heapGrowth).toBeLessThan(GROWTH_MB);
  expect(maxStall).toBeLessThan(STALL_MS);
  return answers;
}

describe('eight 90 MB uploads by one user at once', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ env: { UPLOADS_IN_FLIGHT: String(UPLOADS), UPLOAD_QUOTA_MB: '2048' } });
  });
  afterAll(() => t.close());

  it('to local storage: memory bounded, the loop never held long', { timeout: 180_000 }, async () => {
    const answers = await run(t, 'local');
    // Each stored whole.
    for (const { body } of answers) {
      const key = new URL(body.url).pathname.replace('/uploads/', '');
      expect((await stat(join(t.config.dataDir, 'uploads', key))).size).toBe(SIZE);
    }
  });
});

describe('eight 90 MB uploads by one user at once, to a bucket', () => {
  let t: TestApp;
  let s3: FakeS3;
  beforeAll(async () => {
    s3 = await startS3('streamed-uploads');
    t = await startApp({
      env: {
        UPLOADS_IN_FLIGHT: String(UPLOADS),
        UPLOAD_QUOTA_MB: '2048',
        STORAGE: 's3',
        S3_ENDPOINT: s3.endpoint,
        S3_BUCKET: s3.bucket,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await s3.stop();
  });

  it('to S3: memory bounded, the loop never held long', { timeout: 240_000 }, async () => {
    await run(t, 's3');
  });
});
