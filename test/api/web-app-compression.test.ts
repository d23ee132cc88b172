import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_CSP } from '../../src/http/web-app.js';
import { startApp, type TestApp } from '../support/app.js';

// A built app of realistic size: the fixture, with an asset and an index.html large enough to compress.
const BUNDLE = `${'export const rows = ["a block", "a page", "a site"];\n'.repeat(400)}document.body.dataset.loaded = '1';\n`;
const INDEX = `<!doctype html><html><head><title>fixture-app-index</title></head><body>${'<!-- padding -->'.repeat(200)}</body></html>`;

let dir: string;
let t: TestApp;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pb-web-'));
  await cp('test/fixtures/web-dist', dir, { recursive: true });
  await writeFile(join(dir, 'assets', 'bundle-Ab12Cd34.js'), BUNDLE);
  await writeFile(join(dir, 'index.html'), INDEX);
  // What `npm run build:web` runs after Vite.
  await promisify(execFile)(process.execPath, ['scripts/precompress.mjs', dir]);
  t = await startApp({ env: { WEB_DIR: dir } });
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A raw GET (fetch would decode the body): status, headers and the bytes as sent. */
function raw(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const req = request(`${t.url}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    },
  );
}

describe('the built app, precompressed', () => {
  it('writes a brotli and a gzip copy beside each text file worth compressing, and only those', async () => {
    const files = await readdir(join(dir, 'assets'));
    expect(files).toEqual(expect.arrayContaining(['bundle-Ab12Cd34.js.br', 'bundle-Ab12Cd34.js.gz']));
    // The fixture's own tiny files gain nothing from a copy.
    expect(files.filter((f) => f.startsWith('index-') && /\.(br|gz)$/.test(f))).toEqual([]);
  });

  it('sends the variant the browser accepts, brotli first, the same bytes once decoded', async () => {
    const br = await raw('/assets/bundle-Ab12Cd34.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.body.length).toBeLessThan(BUNDLE.length / 10);
    expect(brotliDecompressSync(br.body).toString()).toBe(BUNDLE);

    const gz = await raw('/assets/bundle-Ab12Cd34.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(BUNDLE);

    const plain = await raw('/assets/bundle-Ab12Cd34.js', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(BUNDLE);
  });

  it('keeps the app’s security headers on a compressed index.html, at / and on its routes', async () => {
    for (const path of ['/', '/pages/12']) {
      const r = await raw(path, { 'accept-encoding': 'br', accept: 'text/html' });
      expect(r.status, path).toBe(200);
      expect(r.headers['content-encoding'], path).toBe('br');
      expect(r.headers['content-type'], path).toMatch(/^text\/html/);
      expect(r.headers['content-security-policy'], path).toBe(APP_CSP);
      expect(r.headers['x-frame-options'], path).toBe('DENY');
      expect(r.headers['cache-control'], path).toBe('no-cache');
      expect(brotliDecompressSync(r.body).toString()).toBe(INDEX);
    }
  });

  it('never serves a compressed copy under its own name as something else', async () => {
    const r = await raw('/assets/bundle-Ab12Cd34.js.br', { 'accept-encoding': 'br' });
    // Served, if at all, as what it is: never labelled as the script it encodes.
    if (r.status === 200) expect(r.headers['content-type']).not.toMatch(/javascript/);
    else expect(r.status).toBe(404);
  });
});
