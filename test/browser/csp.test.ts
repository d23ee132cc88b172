import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, launchBrowser, newContext, startService, type Service } from './harness.js';

/*
 * The app and the API docs under their Content-Security-Policy, in Chromium:
 * the app's own scripts run, a block's JS still runs in its preview (framed
 * from the host page, never srcdoc, which would inherit the app's policy),
 * the docs render as the README links them, a block's values are checked in
 * the browser without eval, and nothing is refused.
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

  it("checks a block's values in the browser without eval: the page editor's forms, the block editor", async () => {
    // Everything the app runs is watched: a refused eval is an exception in the app's code as well.
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|unsafe-eval/.test(message.text()))
        errors.push(message.text());
    });
    const { blockId, pageId } = await page.evaluate(async () => {
      const post = async (path: string, body: unknown) => {
        const answer = await fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return ((await answer.json()) as { id: number }).id;
      };
      const block = await post('/api/blocks', {
        name: 'Checked',
        template: '<h2>{{ title }}</h2><p>{{ count }}</p>',
        schema_content: [
          { name: 'title', label: 'Title', type: 'string', required: true, min_length: 3 },
          { name: 'count', label: 'How many', type: 'integer', max: 5 },
        ],
      });
      const site = await post('/api/sites', { name: 'Checked' });
      const page = await post('/api/pages', {
        name: 'Checked in the browser',
        site_id: site,
        blocks: [{ block_id: block, placeholder_values: { title: 'First', count: 1 } }],
      });
      return { blockId: block, pageId: page };
    });

    await page.goto(`/pages/${pageId}`);
    await page.getByRole('button', { name: 'Edit Checked' }).click();
    const panel = page.getByRole('region', { name: 'Edit “Checked”' });
    const count = panel.getByRole('textbox', { name: /^How many/ });
    const title = panel.getByRole('textbox', { name: /^Title/ });
    let saves = 0;
    page.on('request', (request) => {
      if (request.method() === 'PUT' && /\/api\/pages\/\d+\/blocks\/\d+$/.test(request.url())) saves++;
    });
    // Values the form refuses itself, each message at its field, in the service's words: nothing is sent.
    await count.fill('9');
    await title.fill('Hi');
    await panel.getByRole('button', { name: 'Save changes' }).click();
    // Either the field's message or what the policy refused (Ajv's new Function, before): the latter fails here.
    await page.waitForFunction(
      () => document.getElementById('root_count-error') || (window as Watched).cspViolations?.length,
    );
    expect(await refused(page)).toEqual([]);
    const shown = (field: string) => panel.locator(`[id="root_${field}-error"]`);
    await shown('count')
      .filter({ hasText: /^How many is too large: at most 5\.$/ })
      .waitFor();
    await shown('title')
      .filter({ hasText: /^Title is too short: at least 3 characters\.$/ })
      .waitFor();
    await title.fill('');
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await shown('title')
      .filter({ hasText: /^Title is required\.$/ })
      .waitFor();
    expect(saves).toBe(0);
    // Fixed, the save goes through.
    await title.fill('Second');
    await count.fill('4');
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await panel.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect(saves).toBe(1);
    expect(await refused(page)).toEqual([]);

    // The block editor, and the block's page with its preview.
    await page.goto(`/blocks/${blockId}/edit`);
    await page.getByRole('button', { name: 'Add a field' }).waitFor();
    await page.goto(`/blocks/${blockId}`);
    await page.getByRole('heading', { level: 1, name: 'Checked' }).waitFor();
    expect(await refused(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it.each(['/api/v1/docs', '/api/docs'])('lets the docs render at %s, as the README links them', async (path) => {
    const document = await page.goto(path);
    expect(document!.headers()['content-security-policy']).toMatch(/script-src 'self'/);
    await page.locator('.swagger-ui .info .title').waitFor();
    expect(await page.locator('.swagger-ui .opblock').count()).toBeGreaterThan(5);
    expect(await refused(page)).toEqual([]);
  });
});
