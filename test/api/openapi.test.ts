import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

// Every route of a contour, as Fastify registered it, in OpenAPI path form.
function registeredRoutes(prefix: string, exclude: string): string[] {
  return t.app.http.routeTable.routes
    .map((r) => r.replace(/:(\w+)/g, '{$1}'))
    .filter((r) => {
      const path = r.split(' ')[1]!;
      return (
        path.startsWith(`${prefix}/`) && !path.startsWith(exclude) && !path.includes('/docs') && !r.startsWith('HEAD')
      );
    })
    .sort();
}

describe('route schemas', () => {
  it('compile, every one of them (production compiles each at its first use)', () => {
    expect(() => t.app.http.compileSchemas()).not.toThrow();
  });
});

describe.each([
  { prefix: '/api/v1', scheme: { type: 'http', scheme: 'bearer' }, exclude: '/api/v1-none' },
  { prefix: '/api', scheme: { type: 'apiKey', in: 'cookie', name: 'pb_session' }, exclude: '/api/v1' },
])('the OpenAPI document of $prefix', ({ prefix, scheme, exclude }) => {
  it('is a valid OpenAPI 3 document with the security scheme', async () => {
    const r = await t.call('GET', `${prefix}/docs.json`);
    expect(r.status).toBe(200);
    const document = r.body;
    expect(document.openapi).toMatch(/^3\./);
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeTruthy();
    expect(Object.values(document.components.securitySchemes)).toEqual([expect.objectContaining(scheme)]);
  });

  it('describes every route of the contour with its schemas', async () => {
    const document = (await t.call('GET', `${prefix}/docs.json`)).body;
    const documented: string[] = [];
    for (const [path, operations] of Object.entries<Record<string, { responses: Record<string, unknown> }>>(
      document.paths,
    )) {
      for (const [method, operation] of Object.entries(operations)) {
        documented.push(`${method.toUpperCase()} ${path}`);
        expect(Object.keys(operation.responses).length, `${method} ${path}`).toBeGreaterThan(0);
      }
    }
    const expected = registeredRoutes(prefix, exclude);
    expect(expected.length).toBeGreaterThan(0);
    expect(documented.sort()).toEqual(expected);
  });

  it('serves an interactive UI', async () => {
    const r = await t.call('GET', `${prefix}/docs`);
    expect([200, 302]).toContain(r.status);
    const page = r.status === 302 ? await t.call('GET', r.headers.get('location')!) : r;
    expect(page.text).toMatch(/swagger/i);
  });

  it.each(['/docs', '/docs/'])(
    'serves the UI at %s whole: every script and style it links answers 200 (README links it without a slash)',
    async (path) => {
      const page = await t.call('GET', `${prefix}${path}`);
      expect(page.status).toBe(200);
      const links = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      expect(links.filter((link) => link.endsWith('.js'))).toHaveLength(3);
      for (const link of links) {
        const url = new URL(link, `${t.url}${prefix}${path}`);
        const asset = await t.call('GET', url.pathname);
        expect(asset.status, `${link} from ${prefix}${path}`).toBe(200);
      }
    },
  );

  it('sends the security headers on every docs page: a CSP without inline scripts, no framing, no sniffing', async () => {
    const pages = ['/docs', '/docs/static/swagger-initializer.js', '/docs.json', '/docs/guide'];
    for (const path of pages) {
      const r = await t.call('GET', `${prefix}${path}`);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(r.headers.get('x-frame-options'), path).toBe('DENY');
      expect(r.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
    const csp = (await t.call('GET', `${prefix}/docs`)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  });
});
