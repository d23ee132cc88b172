/**
 * What a cold page editor costs a person on a slow link, measured in Chromium
 * over the built service: the bytes that travel (as encoded on the wire,
 * every request of the load), and when the first paint comes on a link
 * throttled to 1.6 Mbps. Both are printed; the bounds are the product's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser, newContext, sessionCall, startService, type Service } from './harness.js';

/** Cold page editor, everything that travels, compressed. */
const MAX_EDITOR_BYTES = 700 * 1024;
/** First paint of the editor's address on the throttled link. */
const MAX_FIRST_PAINT_MS = 1500;
/** 1.6 Mbps down, 750 kbps up, 40 ms each way: a slow mobile link. */
const SLOW_LINK = { offline: false, latency: 40, downloadThroughput: 1.6e6 / 8, uploadThroughput: 0.75e6 / 8 };

let service: Service;
let browser: Browser;
let context: BrowserContext;
let editorPath = '';

beforeAll(async () => {
  [service, browser] = await Promise.all([startService(), launchBrowser()]);
  context = await newContext(browser, service.url);
  const api = context.request;
  const call = (method: string, path: string, data?: unknown) => sessionCall(service, api, method, path, data);
  await call('POST', '/api/auth/register', { email: `wes-${Date.now()}@example.com`, password: 'wes-password-1' });
  const block = await call('POST', '/api/blocks', {
    name: 'Quote',
    template: '<blockquote>{{ text }}</blockquote>',
    schema_content: [{ name: 'text', type: 'string', required: true }],
  });
  const site = await call('POST', '/api/sites', { name: 'Scales' });
  const page = await call('POST', '/api/pages', {
    name: 'Weighed',
    site_id: site.id,
    blocks: [{ block_id: block.id, placeholder_values: { text: 'Light' } }],
  });
  editorPath = `/pages/${page.id}`;
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** A fresh page in the signed-in context with an empty cache, its network seen through CDP. */
async function coldEditor(throttled: boolean) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (throttled) await cdp.send('Network.emulateNetworkConditions', SLOW_LINK);
  const encoded = new Map<string, number>();
  const urls = new Map<string, string>();
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
  cdp.on('Network.loadingFinished', (e) => encoded.set(e.requestId, e.encodedDataLength));
  await page.goto(editorPath);
  await page.getByRole('heading', { name: 'Weighed', level: 1 }).waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  const firstPaint = await page.evaluate(
    () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
  );
  // Measured from the navigation's start: the skeleton of index.html, before any script ran.
  const bytes = [...encoded.values()].reduce((sum, n) => sum + n, 0);
  const largest = [...encoded.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([id, n]) => `${new URL(urls.get(id) ?? 'http://x/?').pathname} ${Math.round(n / 1024)} KB`);
  await page.close();
  return { bytes, firstPaint, largest };
}

describe('a cold page editor', () => {
  it(`travels in at most ${MAX_EDITOR_BYTES / 1024} KB, compressed`, async () => {
    const { bytes, largest } = await coldEditor(false);
    console.log(`cold page editor: ${Math.round(bytes / 1024)} KB on the wire; largest: ${largest.join(', ')}`);
    expect(bytes).toBeLessThanOrEqual(MAX_EDITOR_BYTES);
  });

  it(`paints first within ${MAX_FIRST_PAINT_MS} ms on a 1.6 Mbps link`, async () => {
    const { firstPaint } = await coldEditor(true);
    console.log(`cold page editor at 1.6 Mbps: first paint at ${Math.round(firstPaint)} ms`);
    expect(firstPaint).toBeLessThan(MAX_FIRST_PAINT_MS);
  });
});
