/**
 * An outdated instance is edited on the revision it is pinned to: its form
 * offers that revision's fields (the ones the service checks it against), a
 * save goes through, and after an upgrade the form offers the new ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, startService, type Service, sessionCall } from './harness.js';

let service: Service;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let pageId = 0;
let block = 0;

const call = (request: APIRequestContext, method: string, path: string, data?: unknown) =>
  sessionCall(service, request, method, path, data);

const v1 = [
  { name: 'heading', label: 'Heading', type: 'string', required: true },
  { name: 'note', label: 'Note', type: 'string' },
];

beforeAll(async () => {
  [service, browser] = await Promise.all([startService(), launchBrowser()]);
  context = await newContext(browser, service.url);
  page = await context.newPage();
  const api = context.request;
  await call(api, 'POST', '/api/auth/register', { email: `pin-${Date.now()}@example.com`, password: 'pin-password-1' });
  const site = await call(api, 'POST', '/api/sites', { name: 'Pins' });
  block = (
    await call(api, 'POST', '/api/blocks', {
      name: 'Card',
      template: '<h2>{{ heading }}</h2><p>{{ note }}</p><em>{{ badge }}</em>',
      schema_content: v1,
    })
  ).id;
  pageId = (
    await call(api, 'POST', '/api/pages', {
      name: 'Pinned',
      site_id: site.id,
      blocks: [{ block_id: block, placeholder_values: { heading: 'Old heading', note: 'Kept' } }],
    })
  ).id;
  // A minor change: a new required field (with a default, which an upgrade fills in).
  await call(api, 'PUT', `/api/blocks/${block}`, {
    schema_content: [...v1, { name: 'badge', label: 'Badge', type: 'string', required: true, default: 'New' }],
  });
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('the instance form of an outdated block', () => {
  it('offers the pinned revision’s fields, and the save is accepted', async () => {
    await page.goto(`/pages/${pageId}?tab=updates`);
    await page
      .getByRole('region', { name: 'Block updates' })
      .getByText('version 1.0 on this page, 1.1 in the library')
      .waitFor();
    await page.getByRole('tab', { name: 'Blocks' }).click();
    await page.getByRole('button', { name: 'Edit Card' }).click();
    const panel = page.getByRole('region', { name: 'Edit “Card”' });
    const heading = panel.getByRole('textbox', { name: /^Heading/ });
    expect(await heading.inputValue()).toBe('Old heading');
    expect(await panel.getByRole('textbox', { name: /^Note/ }).inputValue()).toBe('Kept');
    // The field of 1.1 is not offered: the service would refuse it on a 1.0 instance.
    expect(await panel.getByRole('textbox', { name: /^Badge/ }).count()).toBe(0);

    await heading.fill('New heading');
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await panel.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const stored = await call(context.request, 'GET', `/api/pages/${pageId}?with_blocks=1`);
    expect(stored.blocks).toMatchObject([
      { version: { major: 1, minor: 0 }, placeholder_values: { heading: 'New heading', note: 'Kept' } },
    ]);
    await page.getByRole('tab', { name: /^Updates/ }).click();
  });

  it('offers the new fields after the upgrade', async () => {
    const updates = page.getByRole('region', { name: 'Block updates' });
    await updates.getByRole('button', { name: 'Upgrade Card' }).click();
    await updates.waitFor({ state: 'detached' });
    // The form open on the Fields tab follows the upgrade: the new revision's fields.
    await page.getByRole('tab', { name: 'Fields' }).click();
    const panel = page.getByRole('region', { name: 'Edit “Card”' });
    const badge = panel.getByRole('textbox', { name: /^Badge/ });
    expect(await badge.inputValue()).toBe('New');
    expect(await panel.getByRole('textbox', { name: /^Heading/ }).inputValue()).toBe('New heading');
    await badge.fill('Fresh');
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await panel.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const stored = await call(context.request, 'GET', `/api/pages/${pageId}?with_blocks=1`);
    expect(stored.blocks).toMatchObject([
      { version: { major: 1, minor: 1 }, placeholder_values: { heading: 'New heading', badge: 'Fresh' } },
    ]);
  });
});
