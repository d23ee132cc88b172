/**
 * Real fields in the page editor, in Chromium against the built service and
 * the fake fourcms: what a person types is what the page shows and what the
 * provider receives (line breaks of a text, rich text without anything
 * dangerous in it), and the widgets the placeholder schema names.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import {
  launchBrowser,
  newContext,
  SCREENSHOTS,
  seriousViolations,
  sessionCall,
  startFakeProvider,
  startService,
  WIDTHS,
  type Service,
} from './harness.js';

let service: Service;
let provider: FakeFourcms;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let pageId = 0;
let textInstance = 0;

const call = (method: string, path: string, data?: unknown) =>
  sessionCall(service, context.request, method, path, data);
const preview = () => page.frameLocator('iframe[title="Page preview"]').frameLocator('iframe');

/** The screen at 1280 and 390 px for a reviewer (the page editor switches to Edit at 390 px). */
async function screenshots(name: string) {
  await mkdir(SCREENSHOTS, { recursive: true });
  for (const size of Object.values(WIDTHS)) {
    await page.setViewportSize(size);
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    if (size.width < 1280) {
      const edit = page.getByRole('radio', { name: 'Edit' });
      if (await edit.count()) await edit.check({ force: true });
    }
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${size.width}.png`) });
  }
  await page.setViewportSize(WIDTHS.desktop);
}

/** The published page's HTML and CSS, as the provider received them. */
async function published(): Promise<{ html: string; css: string }> {
  const status = await call('GET', `/api/pages/${pageId}/publication`);
  const kind = (await call('GET', `/api/pages/${pageId}`)).kind;
  if (status.published) await call('POST', `/api/pages/${pageId}/publish-update`, {});
  else await call('POST', `/api/pages/${pageId}/publish`, kind === 'article' ? { rubric_ids: [1] } : {});
  const [doc] = [...provider.documents.values()];
  return { html: String(doc!.html), css: String(doc!.css) };
}

beforeAll(async () => {
  [service, provider, browser] = await Promise.all([startService(), startFakeProvider(), launchBrowser()]);
  context = await newContext(browser, service.url);
  page = await context.newPage();
  await call('POST', '/api/auth/register', {
    email: `fields-${Date.now()}@example.com`,
    password: 'fields-password-1',
  });
  const site = await call('POST', '/api/sites', { name: 'Fields' });
  await call('PUT', `/api/sites/${site.id}/provider/fourcms`, { base_url: provider.url, token: provider.token });
  const blocks = await call('GET', '/api/blocks?search=Starter&limit=100');
  const text = blocks.data.find((b: { name: string }) => b.name === 'Starter: text');
  const created = await call('POST', '/api/pages', {
    name: 'Fields',
    site_id: site.id,
    blocks: [{ block_id: text.id, placeholder_values: { heading: 'Notes', body: 'One line' } }],
  });
  pageId = created.id;
  textInstance = created.blocks[0].id;
});
afterAll(async () => {
  await browser?.close();
  await provider?.close();
  await service?.close();
});

describe('a text field', () => {
  it('keeps its line breaks through the form, the save, the preview and the publication', async () => {
    await page.goto(`/pages/${pageId}?tab=fields&block=${textInstance}`);
    const fields = page.getByRole('region', { name: 'Edit “Starter: text”' });
    const body = fields.getByRole('textbox', { name: /^Text/ });
    await body.click();
    await page.keyboard.press('ControlOrMeta+a');
    // Enter is a line break in the box: the form is not sent.
    await page.keyboard.type('Roses are red,');
    await page.keyboard.press('Enter');
    await page.keyboard.type('violets are blue.');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('A new paragraph.');
    await fields.getByText('Unsaved changes', { exact: true }).waitFor();
    expect(await body.inputValue()).toBe('Roses are red,\nviolets are blue.\n\nA new paragraph.');
    // The preview shows the lines apart (the block's `white-space: pre-line`).
    const shown = preview().locator('.pb-text__body');
    await expect.poll(() => shown.innerText()).toBe('Roses are red,\nviolets are blue.\n\nA new paragraph.');
    await screenshots('fields-text');
    expect(await seriousViolations(page)).toEqual([]);
    // Ctrl+S saves.
    await page.keyboard.press('Control+s');
    await fields.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const stored = await call('GET', `/api/pages/${pageId}?with_blocks=1`);
    expect(stored.blocks[0].placeholder_values.body).toBe('Roses are red,\nviolets are blue.\n\nA new paragraph.');
    const { html, css } = await published();
    expect(html).toContain('Roses are red,\nviolets are blue.\n\nA new paragraph.');
    expect(css).toContain('white-space: pre-line');
  });
});
