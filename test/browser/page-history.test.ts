/**
 * The page's history in the editor (the History tab): its versions newest
 * first with who, when and what; a version shown on the page in place of the
 * current one, under a "Version n · Back to current" bar, with what restoring
 * it would change by block name and field label; Restore and "Undo the last
 * change", each confirmed with what will change. Over SQLite, or PostgreSQL
 * with DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  checkScreen,
  launchBrowser,
  newContext,
  seriousViolations,
  sessionCall,
  startService,
  type Service,
} from './harness.js';

let service: Service;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let pageId = 0;
let email = '';

const call = (method: string, path: string, data?: unknown) =>
  sessionCall(service, context.request, method, path, data);
const stored = () => call('GET', `/api/pages/${pageId}?with_blocks=1`);

beforeAll(async () => {
  [service, browser] = await Promise.all([startService(), launchBrowser()]);
  context = await newContext(browser, service.url);
  page = await context.newPage();
  email = `hist-${Date.now()}@example.com`;
  await call('POST', '/api/auth/register', { email, password: 'history-password-1' });
  const site = await call('POST', '/api/sites', { name: 'History' });
  const hero = await call('POST', '/api/blocks', {
    name: 'Hero',
    template: '<h1>{{ heading_text }}</h1>',
    schema_content: [{ name: 'heading_text', label: 'Heading', type: 'string', default: 'Hello' }],
  });
  const text = await call('POST', '/api/blocks', { name: 'Aside', template: '<p>An aside</p>' });
  // Version 1: the hero says "First"; 2: "Second"; 3: an aside added.
  const created = await call('POST', '/api/pages', {
    name: 'Story',
    site_id: site.id,
    blocks: [{ block_id: hero.id, placeholder_values: { heading_text: 'First' } }],
  });
  pageId = created.id;
  await call('PUT', `/api/pages/${pageId}/blocks/${created.blocks[0].id}`, {
    placeholder_values: { heading_text: 'Second' },
  });
  await call('POST', `/api/pages/${pageId}/blocks`, { blocks: [{ block_id: text.id }] });
  expect((await stored()).version).toBe(3);
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

const current = () => page.frameLocator('iframe[title="Page preview"]').frameLocator('iframe');
const past = (n: number) => page.frameLocator(`iframe[title="Page preview, version ${n}"]`).frameLocator('iframe');
const versions = () => page.getByRole('list', { name: 'Versions' }).getByRole('listitem');

describe('the page’s history in the editor', () => {
  it('lists the versions newest first, with who made each, when, and what it changed', async () => {
    await page.goto(`/pages/${pageId}?tab=history`);
    await expect.poll(() => versions().count(), { timeout: 15_000 }).toBe(3);
    const texts = await versions().allTextContents();
    expect(
      await versions()
        .getByText(/^Version \d+$/)
        .allTextContents(),
    ).toEqual(['Version 3', 'Version 2', 'Version 1']);
    expect(texts[0]).toContain('Current');
    for (const text of texts) expect(text).toContain(`${email}, in the web app`);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows a version on the page in place of the current one, with what restoring it changes by field label', async () => {
    await page.getByRole('button', { name: 'Show version 1' }).click();
    await past(1).getByRole('heading', { name: 'First' }).waitFor();
    expect(await past(1).getByText('An aside').count()).toBe(0);
    await page
      .getByRole('status')
      .filter({ hasText: 'Version 1' })
      .getByRole('button', { name: 'Back to current' })
      .waitFor();
    expect(new URL(page.url()).searchParams.get('version')).toBe('1');
    const changes = page.getByRole('list', { name: 'Changes from version 3 to version 1' });
    await changes.getByText('Removed: Aside.').waitFor();
    // By the block's name and the field's label, never its API path.
    expect(await changes.allTextContents()).toEqual([expect.stringContaining('Hero › Heading: Second → First')]);
    expect(await changes.textContent()).not.toContain('placeholder_values');
    expect(await checkScreen(page, 'page-editor-history')).toEqual([]);
    // The place is in the address.
    await page.reload();
    await past(1).getByRole('heading', { name: 'First' }).waitFor();
    await page.getByRole('button', { name: 'Back to current' }).click();
    await current().getByRole('heading', { name: 'Second' }).waitFor();
    expect(new URL(page.url()).searchParams.get('version')).toBeNull();
  });

  it('restores a version after a confirmation that says what will change', async () => {
    await page.getByRole('button', { name: 'Show version 1' }).click();
    await page.getByRole('button', { name: 'Restore version 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore version 1?' });
    await dialog.getByText('Hero › Heading: Second → First').waitFor();
    await dialog.getByText('Removed: Aside.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Restore version 1' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await current().getByRole('heading', { name: 'First' }).waitFor();
    const after = await stored();
    expect(after.version).toBe(4);
    expect(after.blocks.map((b: { placeholder_values: unknown }) => b.placeholder_values)).toEqual([
      { heading_text: 'First' },
    ]);
    await expect.poll(() => versions().count(), { timeout: 15_000 }).toBe(4);
  });

  it('undoes the last change in one click through a restore, confirmed with what will change', async () => {
    await page.getByRole('button', { name: 'Undo the last change' }).click();
    const dialog = page.getByRole('dialog', { name: 'Undo the last change?' });
    await dialog.getByText('Hero › Heading: First → Second').waitFor();
    await dialog.getByText(/^Added: Aside/).waitFor();
    await dialog.getByRole('button', { name: 'Undo the last change' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await current().getByText('An aside').waitFor();
    const after = await stored();
    expect(after.version).toBe(5);
    expect(after.blocks.map((b: { block: { name: string } }) => b.block.name)).toEqual(['Hero', 'Aside']);
    expect(after.blocks[0].placeholder_values).toEqual({ heading_text: 'Second' });
  });
});
