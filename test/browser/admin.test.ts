import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  ADMIN,
  checkScreen,
  launchBrowser,
  newContext,
  sessionCall,
  sidewaysScrollers,
  startService,
  type Service,
} from './harness.js';

let service: Service;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [service, browser] = await Promise.all([startService(), launchBrowser()]);
  context = await newContext(browser, service.url);
  page = await context.newPage();
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel(/^Password/).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: /Welcome/ }).waitFor();
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('the administrator screens', () => {
  it('moderation queue: accessible at both widths, with the active nav entry hovered', async () => {
    // Reached by the navigation and hovered there: the active entry's text on its hover tint must keep 4.5:1.
    const entry = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Moderation' });
    await entry.click();
    await page.getByRole('heading', { name: 'Moderation queue' }).waitFor();
    await entry.hover();
    await page.getByText('Nothing waits for a decision.').waitFor();
    expect(await checkScreen(page, 'admin-moderation')).toEqual([]);
  });

  it('users: lists the accounts, finds one by email and blocks it from the list', async () => {
    const register = await fetch(`${service.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bea@example.com', password: 'bea-password-1' }),
    });
    expect(register.status).toBe(201);
    await page.goto('/admin/users');
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await page.getByRole('rowheader', { name: 'bea@example.com' }).waitFor();
    // The administrator's own row offers nothing that would lock them out.
    const own = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: ADMIN.email }) });
    expect(await own.getByRole('button').count()).toBe(0);
    expect(await checkScreen(page, 'admin-users')).toEqual([]);

    await page.getByRole('searchbox', { name: 'Search by email' }).fill('bea@');
    await page.getByRole('rowheader', { name: ADMIN.email }).waitFor({ state: 'detached' });
    // By keyboard: the button is reached with focus and pressed with Enter.
    await page.getByRole('button', { name: 'Block: bea@example.com' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Block: bea@example.com?' });
    expect(await checkScreen(page, 'admin-users-confirm')).toEqual([]);
    await dialog.getByRole('button', { name: 'Block' }).click();
    await page.getByRole('button', { name: 'Unblock: bea@example.com' }).waitFor();
    const login = await fetch(`${service.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bea@example.com', password: 'bea-password-1' }),
    });
    expect(login.status).toBe(403);
  });

  it('deprecation: lists the global starter blocks, and the dialog names the block', async () => {
    await page.goto('/admin/deprecation');
    await page.getByRole('heading', { name: 'Deprecate global blocks' }).waitFor();
    const first = page.getByRole('button', { name: /^Deprecate / }).first();
    await first.waitFor();
    expect(await checkScreen(page, 'admin-deprecation')).toEqual([]);
    expect(await sidewaysScrollers(page)).toEqual([]);
    await first.click();
    await page.getByRole('dialog', { name: 'Deprecate this block?' }).waitFor();
    expect(await checkScreen(page, 'admin-deprecation-confirm')).toEqual([]);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  });

  it('catalog: creates a tag against the real service', async () => {
    await page.goto('/admin/catalog');
    await page.getByRole('heading', { name: 'Catalog' }).waitFor();
    const form = page.getByRole('form', { name: 'Create a tag' });
    await form.getByLabel(/^Name/).fill('Browser tag');
    await form.getByRole('button', { name: 'Create tag' }).click();
    await page.getByRole('rowheader', { name: 'Browser tag' }).waitFor();
    expect(await checkScreen(page, 'admin-catalog')).toEqual([]);
    await page.getByRole('tab', { name: 'Data sources' }).click();
    await page.getByRole('form', { name: 'Create a data source' }).waitFor();
    expect(await checkScreen(page, 'admin-catalog-sources')).toEqual([]);
    expect(await sidewaysScrollers(page)).toEqual([]);
  });

  it('moderation review: the content and preview as submitted, and the change since, at both widths', async () => {
    // An author submits a block, then changes its script: the review shows what was submitted.
    const author = await newContext(browser, service.url);
    try {
      const call = (method: string, path: string, data?: unknown) =>
        sessionCall(service, author.request, method, path, data);
      await call('POST', '/api/auth/register', { email: 'ada@example.com', password: 'ada-password-1' });
      const block = await call('POST', '/api/blocks', {
        name: 'News ticker',
        description: 'One line of news across the page.',
        template: '<p class="ticker">{{ headline }}</p>',
        css: '.ticker { font-weight: bold; }',
        js: 'document.querySelector(".ticker").dataset.source = "submitted";',
        schema_content: [
          { name: 'headline', type: 'string', label: 'Headline', required: true, default: 'Markets open higher' },
        ],
      });
      await call('POST', `/api/blocks/${block.id}/submit`);
      await call('PUT', `/api/blocks/${block.id}`, {
        js: 'document.querySelector(".ticker").dataset.source = "changed after submitting";',
      });
    } finally {
      await author.close();
    }

    await page.goto('/admin/moderation');
    const table = page.getByRole('table', { name: 'Submissions' });
    await table.getByText('News ticker 1.0').waitFor();
    await table.getByText('Changed since submitted').waitFor();
    expect(await table.textContent()).toContain('ada@example.com');
    expect(await checkScreen(page, 'admin-moderation-queue')).toEqual([]);
    expect(await sidewaysScrollers(page)).toEqual([]);

    await page.getByRole('link', { name: 'Review News ticker 1.0 by ada@example.com' }).click();
    await page.getByRole('heading', { name: 'Review: News ticker 1.0' }).waitFor();
    const note = page.getByRole('status', { name: 'Changed since submitted' });
    expect(await note.textContent()).toContain('it is at version 1.1 now');
    expect(await page.getByLabel('JavaScript').textContent()).toBe(
      'document.querySelector(".ticker").dataset.source = "submitted";',
    );
    await page.getByRole('table', { name: 'Fields' }).getByRole('rowheader', { name: 'headline' }).waitFor();
    // The preview runs the submitted script, in a sandbox without the app's origin.
    const frame = page.locator('iframe[title="Preview of News ticker 1.0 as submitted"]');
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts');
    const ticker = page
      .frameLocator('iframe[title="Preview of News ticker 1.0 as submitted"]')
      .frameLocator('iframe')
      .locator('p.ticker');
    await ticker.getByText('Markets open higher').waitFor();
    expect(await ticker.getAttribute('data-source')).toBe('submitted');
    expect(await checkScreen(page, 'admin-moderation-review')).toEqual([]);
    expect(await sidewaysScrollers(page)).toEqual([]);

    // Approved after asking: the global copy has the script submitted, not the one written since.
    await page.getByRole('button', { name: 'Approve' }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve this submission?' });
    await dialog.getByText('The author’s changes since submitting are not part of the copy.').waitFor();
    await dialog.getByRole('button', { name: 'Approve' }).click();
    const copyLink = page.getByRole('link', { name: 'Open the global copy of News ticker' });
    await copyLink.waitFor();
    const copyId = /\/blocks\/(\d+)$/.exec((await copyLink.getAttribute('href')) ?? '')![1];
    const copy = await sessionCall(service, context.request, 'GET', `/api/blocks/${copyId}`);
    expect(copy.current_revision.js).toBe('document.querySelector(".ticker").dataset.source = "submitted";');
  });
});
