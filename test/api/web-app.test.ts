import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsHtml, APP_CSP } from '../../src/http/web-app.js';
import { startApp, type TestApp } from '../support/app.js';

// The browser app, served by the service itself from a tiny built fixture.
const FIXTURE = 'test/fixtures/web-dist';
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ env: { WEB_DIR: FIXTURE } });
});
afterAll(() => t.close());

describe('the built app', () => {
  it('is served at / with its index.html, never cached without revalidation', async () => {
    for (const headers of [HTML, {}]) {
      const r = await t.call('GET', '/', { headers });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
      expect(r.text).toContain('fixture-app-index');
      expect(r.headers.get('cache-control')).toBe('no-cache');
      expect(r.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it("sends a strict CSP with the app's HTML (its own scripts only, never framed), on its routes too", async () => {
    for (const path of ['/', '/pages/12']) {
      const r = await t.call('GET', path, { headers: HTML });
      expect(r.status, path).toBe(200);
      const csp = r.headers.get('content-security-policy') ?? '';
      expect(csp, path).toBe(APP_CSP);
      // Its own files only: never an inline script, never eval.
      expect(csp).toMatch(/(^|; )script-src 'self'(;|$)/);
      expect(csp).not.toMatch(/unsafe-eval/);
      expect(csp).toMatch(/(^|; )frame-ancestors 'none'(;|$)/);
      expect(csp).toMatch(/(^|; )object-src 'none'(;|$)/);
      expect(r.headers.get('referrer-policy')).toBe('same-origin');
    }
  });

  it("serves the previews' host page with a sandbox of its own, framable by the app only", async () => {
    const r = await t.call('GET', '/preview-frame.html');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-security-policy')).toBe("sandbox allow-scripts; frame-ancestors 'self'");
    expect(r.headers.get('x-frame-options')).toBeNull();
    expect(r.text).toContain("addEventListener('message'");
  });

  it('serves hashed assets as immutable, with an ETag that answers 304', async () => {
    const r = await t.call('GET', '/assets/index-Fx7Qa2bC.js');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/javascript/);
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(r.text).toContain('dataset.loaded');
    const etag = r.headers.get('etag');
    expect(etag).toBeTruthy();
    // fetch() adds `Cache-Control: no-cache` to a conditional request unless one is given; a browser revalidates with max-age=0.
    const again = await t.call('GET', '/assets/index-Fx7Qa2bC.js', {
      headers: { 'if-none-match': etag!, 'cache-control': 'max-age=0' },
    });
    expect(again.status).toBe(304);
    const css = await t.call('GET', '/assets/index-K3pL9sWd.css');
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('revalidates files outside assets/ (they keep their names across builds)', async () => {
    const r = await t.call('GET', '/favicon.svg');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers a missing asset with a JSON 404, not with the app', async () => {
    const r = await t.call('GET', '/assets/index-Old00000.js', { headers: { accept: '*/*' } });
    expect(r.status).toBe(404);
    expect(r.body.error).toMatch(/No route/);
  });

  it('never serves dotfiles or files outside its directory', async () => {
    expect((await t.call('GET', '/.secret')).status).toBe(404);
    for (const path of ['/..%2f..%2fpackage.json', '/assets/..%2f..%2f..%2fpackage.json', '/%2e%2e/package.json']) {
      const r = await t.call('GET', path);
      expect(r.text, path).not.toContain('"name": "pageblocks"');
      expect(r.status, path).toBeGreaterThanOrEqual(400);
    }
  });
});

describe('the HTML fallback for the app’s routes', () => {
  it('answers a browser navigation to /pages/12 with the app’s index.html', async () => {
    for (const method of ['GET', 'HEAD']) {
      const r = await t.call(method, '/pages/12', { headers: HTML });
      expect(r.status, method).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
      expect(r.headers.get('cache-control')).toBe('no-cache');
      if (method === 'GET') expect(r.text).toContain('fixture-app-index');
    }
    expect((await t.call('GET', '/sites/3/pages?tab=blocks', { headers: HTML })).text).toContain('fixture-app-index');
  });

  it('does not answer a request that does not ask for HTML, or that is not a GET', async () => {
    for (const accept of ['application/json', '*/*', 'text/html;q=0']) {
      const r = await t.call('GET', '/pages/12', { headers: { accept } });
      expect(r.status, accept).toBe(404);
      expect(r.body).toEqual({ error: 'No route GET /pages/12.' });
    }
    const post = await t.call('POST', '/pages/12', { headers: HTML, body: {} });
    expect(post.status).toBe(404);
    expect(post.headers.get('content-type')).toMatch(/json/);
  });

  it.each([
    ['/api/nothing', 404],
    ['/api/v1/nothing', 404],
    ['/api/v1/sites', 401],
    ['/api/auth/me', 401],
    ['/uploads/nothing.png', 404],
    ['/health', 200],
    ['/health/more', 404],
    ['/ready', 200],
    ['/metrics', 404],
    ['/docs', 404],
    ['/docs/anything', 404],
  ])('never shadows the service: a browser navigation to %s gets JSON %i', async (path, status) => {
    const r = await t.call('GET', path, { headers: HTML });
    expect(r.status).toBe(status);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    expect(r.text).not.toContain('fixture-app-index');
  });

  it('keeps the 405 answers of the API', async () => {
    const wrong = await t.call('GET', '/api/auth/login', { headers: HTML });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect((await t.call('DELETE', '/pages/12')).status).toBe(404);
  });
});

describe('an app that was not built', () => {
  let empty: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pageblocks-web-'));
    empty = await startApp({ env: { WEB_DIR: join(dir, 'dist') } });
  });
  afterAll(async () => {
    await empty.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers / with a 503 that says how to build it, in JSON or in HTML', async () => {
    const json = await empty.call('GET', '/');
    expect(json.status).toBe(503);
    expect(json.body.error).toMatch(/not built.*npm run build.*WEB_DIR/);
    const html = await empty.call('GET', '/pages/4', { headers: HTML });
    expect(html.status).toBe(503);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html.text).toMatch(/<h1>The web app is not built<\/h1>/);
    expect(html.headers.get('cache-control')).toBe('no-store');
  });

  it('leaves the API and other paths as they were', async () => {
    expect((await empty.call('GET', '/api/v1/sites', { headers: HTML })).status).toBe(401);
    expect((await empty.call('GET', '/pages/4', { headers: { accept: 'application/json' } })).status).toBe(404);
  });

  it('serves the app once it is built, without a restart', async () => {
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, 'dist', 'assets'), { recursive: true });
    await writeFile(join(dir, 'dist', 'index.html'), '<!doctype html><p>built later</p>');
    await writeFile(join(dir, 'dist', 'assets', 'app-Zz9Yy8Xx.js'), 'export {};');
    const r = await empty.call('GET', '/pages/4', { headers: HTML });
    expect(r.status).toBe(200);
    expect(r.text).toContain('built later');
    expect((await empty.call('GET', '/assets/app-Zz9Yy8Xx.js')).status).toBe(200);
  });
});

describe('acceptsHtml', () => {
  it.each([
    ['text/html', true],
    ['TEXT/HTML; charset=utf-8', true],
    ['application/json, text/html;q=0.5', true],
    ['text/html;q=0', false],
    ['text/htmlx', false],
    ['*/*', false],
    [undefined, false],
  ])('%s → %s', (accept, expected) => {
    expect(acceptsHtml(accept)).toBe(expected);
  });
});
