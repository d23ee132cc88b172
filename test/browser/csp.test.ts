import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, launchBrowser, newContext, startService, type Service } from './harness.js';

/*
 * The app and the API docs under their Content-Security-Policy, in Chromium:
 * the app's own scripts run, a block's JS still runs in its preview (framed
 * from the host page, never srcdoc, which would inherit the app's policy),
 * the docs render as the README links them, and nothing is refused.
 */
let service: Service;
let browser: Browser;
let context: BrowserContext;
let page: Page;

type Watched = Window & { cspViolations?: string[] };

beforeAll(async () => {
  [service, browser] = await Promise.all([startService(), launchBrowser()]);
  context = await newContext(browser, service.url);
  // In every document, frames included: what the policy refused.
  await context.addInitScript(() => {
    const watched = window as Watched;
    watched.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      watched.cspViolations!.push(`${event.effectiveDirective} ${event.blockedURI}`),
    );
  });
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

const refused = (p: Page) => p.evaluate(() => (window as Watched).cspViolations ?? []);

describe('the strict CSP', () => {
  it("holds the app, and a block's JS runs in its preview", async () => {
    const document = await page.goto('/sign-in');
    expect(document!.headers()['content-security-policy']).toMatch(/script-src 'self'.*frame-ancestors 'none'/);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel(/^Password/).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();

    // From the app itself, with its session: the browser sends the app's Origin.
    const id = await page.evaluate(async () => {
      const answer = await fetch('/api/blocks', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Scripted',
          template: '<p id="said">{{ greeting }}</p>',
          js: "document.getElementById('said').textContent += ' and its script ran';",
          schema_content: [{ name: 'greeting', type: 'string', default: 'Hello' }],
        }),
      });
      return ((await answer.json()) as { id: number }).id;
    });
    await page.goto(`/blocks/${id}`);
    const preview = page.frameLocator('iframe[title="Preview of the block’s example"]').frameLocator('iframe');
    await preview.getByText('Hello and its script ran').waitFor();
    expect(await refused(page)).toEqual([]);
  });

  it.each(['/api/v1/docs', '/api/docs'])('lets the docs render at %s, as the README links them', async (path) => {
    const document = await page.goto(path);
    expect(document!.headers()['content-security-policy']).toMatch(/script-src 'self'/);
    await page.locator('.swagger-ui .info .title').waitFor();
    expect(await page.locator('.swagger-ui .opblock').count()).toBeGreaterThan(5);
    expect(await refused(page)).toEqual([]);
  });
});
