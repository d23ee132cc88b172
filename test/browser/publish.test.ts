/**
 * The page editor's own flows in Chromium against the built service and the
 * fake fourcms: a page's details, a minor upgrade and the replace flow of a
 * major change, publication with an article's rubric ids, an update, and a
 * failing provider whose message the person sees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import type { FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import {
  checkScreen,
  launchBrowser,
  newContext,
  startFakeProvider,
  startService,
  type Service,
  sessionCall,
} from './harness.js';

let service: Service;
let provider: FakeFourcms;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let pageId = 0;
let block = 0;

const call = (request: APIRequestContext, method: string, path: string, data?: unknown) =>
  sessionCall(service, request, method, path, data);

/** A screen at both widths: screenshots, and no serious axe violation (listed in the failure when there is one). */
async function accessible(name: string) {
  const violations = await checkScreen(page, name);
  expect(violations, JSON.stringify(violations, null, 1)).toEqual([]);
}

beforeAll(async () => {
  [service, provider, browser] = await Promise.all([startService(), startFakeProvider(), launchBrowser()]);
  context = await newContext(browser, service.url);
  page = await context.newPage();
  const api = context.request;
  await call(api, 'POST', '/api/auth/register', { email: `pat-${Date.now()}@example.com`, password: 'pat-password-1' });
  const site = await call(api, 'POST', '/api/sites', { name: 'Newsroom' });
  await call(api, 'PUT', `/api/sites/${site.id}/provider/fourcms`, { base_url: provider.url, token: provider.token });
  const created = await call(api, 'POST', '/api/blocks', {
    name: 'Quote',
    template: '<blockquote>{{ text }} ({{ author }})</blockquote>',
    schema_content: [
      { name: 'text', type: 'string', required: true },
      { name: 'author', type: 'string' },
    ],
  });
  block = created.id;
});
afterAll(async () => {
  await browser?.close();
  await provider?.close();
  await service?.close();
});

describe('a page from its creation to its publication', () => {
  it('is created on the pages screen and opens in the editor', async () => {
    await page.goto('/pages');
    await page.getByRole('textbox', { name: 'Name' }).fill('Spring launch');
    await page.getByRole('button', { name: 'Create page' }).click();
    await page.getByRole('heading', { name: 'Spring launch', level: 1 }).waitFor();
    pageId = Number(new URL(page.url()).pathname.split('/').pop());
    expect(pageId).toBeGreaterThan(0);
    await call(context.request, 'POST', `/api/pages/${pageId}/blocks`, {
      blocks: [{ block_id: block, placeholder_values: { text: 'To be', author: 'Hamlet' } }],
    });
  });

  it('edits its details; a malformed slug is refused at the field', async () => {
    await page.reload();
    await page.getByRole('button', { name: 'Details', exact: true }).click();
    const panel = page.getByRole('dialog', { name: 'Page details' });
    await panel.getByRole('textbox', { name: 'Slug' }).fill('Spring Launch');
    await panel.getByRole('button', { name: 'Save details' }).click();
    await panel.getByText('Lower-case letters and digits').waitFor();
    await accessible('page-details');
    await panel.getByRole('textbox', { name: 'Slug' }).fill('spring-launch');
    await panel.getByRole('textbox', { name: 'Meta title' }).fill('Spring is here');
    await panel.getByRole('button', { name: 'Save details' }).click();
    await panel.waitFor({ state: 'hidden' });
    const stored = await call(context.request, 'GET', `/api/pages/${pageId}`);
    expect(stored).toMatchObject({ slug: 'spring-launch', meta_title: 'Spring is here' });
  });

  it('upgrades a block after a minor change of the library', async () => {
    await call(context.request, 'PUT', `/api/blocks/${block}`, {
      template: '<blockquote class="q">{{ text }} ({{ author }})</blockquote>',
    });
    await page.reload();
    await page.getByRole('tab', { name: /^Updates/ }).click();
    const updates = page.getByRole('region', { name: 'Block updates' });
    await updates.getByText('version 1.0 on this page, 1.1 in the library').waitFor();
    await accessible('page-editor-outdated');
    // By keyboard: the button is reached and pressed like any other.
    await updates.getByRole('button', { name: 'Upgrade Quote' }).focus();
    await page.keyboard.press('Enter');
    await updates.waitFor({ state: 'detached' });
  });

  it('replaces a block after a major change, showing the value that will be lost', async () => {
    await call(context.request, 'PUT', `/api/blocks/${block}`, {
      template: '<blockquote>{{ text }} — {{ source }}</blockquote>',
      schema_content: [
        { name: 'text', type: 'string', required: true },
        { name: 'source', type: 'string', required: true },
      ],
    });
    await page.reload();
    await page.getByRole('tab', { name: /^Updates/ }).click();
    await page.getByRole('button', { name: 'Replace Quote…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Replace “Quote” with its new version' });
    const lost = dialog.getByRole('table', { name: 'Values that will be lost' });
    await lost.getByRole('row', { name: 'author Hamlet' }).waitFor();
    expect(await dialog.getByRole('textbox', { name: /^text/i }).inputValue()).toBe('To be');
    await accessible('page-editor-replace');
    await dialog.getByRole('textbox', { name: /^source/i }).fill('Shakespeare');
    await dialog.getByRole('button', { name: 'Replace block' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const stored = await call(context.request, 'GET', `/api/pages/${pageId}?with_blocks=1`);
    expect(stored.blocks).toMatchObject([
      {
        placeholder_values: { text: 'To be', source: 'Shakespeare' },
        version: { major: 2 },
        update_status: 'up_to_date',
      },
    ]);
  });

  it('shows an unsaved value in the page preview, and the saved one again after a discard', async () => {
    const preview = page.frameLocator('iframe[title="Page preview"]').frameLocator('iframe');
    await preview.getByText('To be — Shakespeare').waitFor();
    await page.getByRole('tab', { name: 'Blocks' }).click();
    await page.getByRole('button', { name: 'Edit Quote' }).click();
    const drawer = page.getByRole('region', { name: 'Edit “Quote”' });
    const started = Date.now();
    await drawer.getByRole('textbox', { name: /^text/i }).fill('Not to be');
    await preview.getByText('Not to be — Shakespeare').waitFor();
    console.log(`page preview with the unsaved value after ${Date.now() - started} ms`);
    await accessible('page-editor-unsaved-preview');
    await drawer.getByRole('button', { name: 'Discard changes' }).click();
    await preview.getByText('To be — Shakespeare').waitFor();
    expect(await drawer.getByRole('textbox', { name: /^text/i }).inputValue()).toBe('To be');
    const stored = await call(context.request, 'GET', `/api/pages/${pageId}?with_blocks=1`);
    expect(stored.blocks[0].placeholder_values.text).toBe('To be');
  });

  it('publishes to the provider with the rubric ids, and shows the status', async () => {
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const publication = page.getByRole('region', { name: 'Publication' });
    await publication.getByRole('button', { name: 'Publish' }).click();
    await publication.getByText('An article needs at least one rubric id.').waitFor();
    await publication.getByRole('textbox', { name: 'Rubric ids' }).fill('4, 9');
    await publication.getByRole('button', { name: 'Publish' }).click();
    const status = publication.getByRole('table', { name: 'Publication status' });
    await status.waitFor();
    const [doc] = [...provider.documents.values()];
    expect(doc).toMatchObject({ kind: 'article', title: 'Spring launch', slug: 'spring-launch', rubric_ids: [4, 9] });
    expect(String(doc!.html)).toContain('Shakespeare');
    expect(await status.getByRole('row', { name: /Id at the provider/ }).textContent()).toContain(doc!.id);
    expect(await status.getByRole('row', { name: /Slug at the provider/ }).textContent()).toContain('spring-launch');
    await accessible('page-editor-published');
  });

  it('shows the provider’s message when an update fails, then succeeds on retry', async () => {
    const publication = page.getByRole('region', { name: 'Publication' });
    provider.failNext('401');
    await publication.getByRole('button', { name: 'Publish update' }).click();
    const alert = publication.getByRole('alert').filter({ hasText: 'The provider refused the publication' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/invalid token/i);
    await accessible('page-editor-publish-failed');

    // Opened again later: the status still says that the last attempt failed, when, and why.
    await page.reload();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const note = publication.getByRole('note').filter({ hasText: 'The provider refused the publication' });
    await note.waitFor();
    expect(await note.textContent()).toMatch(/Last attempt: .*\d.*invalid token/i);
    await accessible('page-editor-publish-failed-later');

    const before = provider.requests.length;
    await publication.getByRole('button', { name: 'Publish update' }).click();
    await publication.getByRole('status').filter({ hasText: 'The provider has the current page' }).waitFor();
    expect(provider.requests.slice(before).map((r) => r.method)).toEqual(['PUT']);
    await note.waitFor({ state: 'detached' });
    await alert.waitFor({ state: 'detached' });
  });
});
