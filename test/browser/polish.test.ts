/**
 * The rough edges a new user met, each seen in Chromium: every tab titled
 * "Pageblocks", the pages list scrolling sideways at 390 px, error screens
 * with no way back (and an internal id in their words), and the closed
 * navigation drawer at 390 px keeping its links in the tab order; a form's
 * refusal shown at its field, with the focus there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  launchBrowser,
  newContext,
  sessionCall,
  sidewaysScrollers,
  startService,
  WIDTHS,
  type Service,
} from './harness.js';

let service: Service;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let siteId = 0;

beforeAll(async () => {
  [service, browser] = await Promise.all([startService(), launchBrowser()]);
  context = await newContext(browser, service.url);
  page = await context.newPage();
  const call = (method: string, path: string, data?: unknown) =>
    sessionCall(service, context.request, method, path, data);
  await call('POST', '/api/auth/register', { email: `polly-${Date.now()}@example.com`, password: 'polly-password-1' });
  const site = await call('POST', '/api/sites', { name: 'Harbour news' });
  siteId = site.id;
  const folder = await call('POST', '/api/folders', { site_id: site.id, name: 'A folder with a rather long name' });
  for (const name of ['A page with a long enough name to wrap', 'Second page'])
    await call('POST', '/api/pages', { name, site_id: site.id, folder_id: folder.id });
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('the polish of the screens', () => {
  it('titles each browser tab after its screen', async () => {
    for (const [path, heading, title] of [
      ['/sites', 'Sites', 'Sites · Pageblocks'],
      ['/pages', 'Pages', 'Pages · Pageblocks'],
      ['/blocks', 'Block library', 'Block library · Pageblocks'],
      ['/api-keys', 'API keys', 'API keys · Pageblocks'],
      ['/webhooks', 'Webhooks', 'Webhooks · Pageblocks'],
      [`/sites/${siteId}`, 'Harbour news', 'Harbour news · Pageblocks'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.waitForFunction((expected) => document.title === expected, title);
      expect(await page.title(), path).toBe(title);
    }
  });

  it('shows the pages list at 390 px without sideways scrolling', async () => {
    await page.goto('/pages');
    await page.getByRole('link', { name: 'Second page' }).waitFor();
    expect(await sidewaysScrollers(page)).toEqual([]);
  });

  it('answers an address that names nothing with plain words and the way back', async () => {
    for (const [path, words, back, heading] of [
      ['/blocks/987654', 'There is no block at this address', '← Block library', 'Block library'],
      ['/sites/987654', 'There is no site at this address', '← Sites', 'Sites'],
    ] as const) {
      await page.goto(path);
      const alert = page.getByRole('alert');
      await alert.getByText(words).waitFor();
      expect(await alert.textContent(), path).not.toMatch(/987654|\/api/);
      await page.getByRole('link', { name: back }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    }
  });

  it('shows a refused create at its field, with the focus there, and takes the corrected one', async () => {
    await page.goto('/webhooks');
    const form = page.getByRole('form', { name: 'Add a webhook' });
    const url = form.getByLabel('URL');
    // Passes the form's own check (an http address); the service refuses it.
    await url.fill('http://someone:secret@127.0.0.1:9/hooks');
    await form.getByRole('button', { name: /Add/ }).click();
    await form.getByText('url must not contain credentials', { exact: false }).waitFor();
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    // The field has focus, so the keyboard is where the fix goes.
    expect(await url.evaluate((node) => node === document.activeElement)).toBe(true);
    await url.fill('http://127.0.0.1:9/hooks');
    await form.getByRole('button', { name: /Add/ }).click();
    await page.getByText('http://127.0.0.1:9/hooks').first().waitFor();
    expect(await url.getAttribute('aria-invalid')).not.toBe('true');
    expect(await form.getByText('url must not contain credentials', { exact: false }).count()).toBe(0);
  });

  it('keeps the closed navigation drawer out of the tab order at 390 px', async () => {
    await page.setViewportSize(WIDTHS.mobile);
    try {
      await page.goto('/pages');
      await page.getByRole('heading', { name: 'Pages', level: 1 }).waitFor();
      const nav = page.locator('#main-navigation');
      expect(await nav.evaluate((node) => (node as HTMLElement).inert)).toBe(true);
      // From the menu button, Tab goes on to the header's next control, never into the hidden links.
      const burger = page.getByRole('button', { name: 'Open navigation' });
      await burger.focus();
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => Boolean(document.activeElement?.closest('#main-navigation')))).toBe(false);
      }
      // Opened, its links are reachable and work.
      await burger.click();
      expect(await nav.evaluate((node) => (node as HTMLElement).inert)).toBe(false);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sites' }).click();
      await page.getByRole('heading', { name: 'Sites', level: 1 }).waitFor();
      expect(await nav.evaluate((node) => (node as HTMLElement).inert)).toBe(true);
    } finally {
      await page.setViewportSize(WIDTHS.desktop);
    }
  });
});
