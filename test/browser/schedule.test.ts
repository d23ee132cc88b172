/**
 * Schedule, beside Publish: a date and time in the user's own zone (named in
 * words), the pending schedule with its time and Cancel, and the outcome of
 * the last scheduled run. Run in a browser whose zone is New York: 9:00
 * there is 14:00 UTC in January.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { browserFixture } from './fixture.js';
import { axeViolations, SCREENSHOTS, startFakeProvider, WIDTHS } from './harness.js';

const app = browserFixture({ user: 'scheduler', env: { JOB_POLL_SECONDS: '0.5' } });
let provider: FakeFourcms;
let context: BrowserContext;
let page: Page;
let pageId: number;

beforeAll(async () => {
  provider = await startFakeProvider();
  const site = await app.call('POST', '/api/sites', { name: 'Launch' });
  await app.call('PUT', `/api/sites/${site.id}/provider/fourcms`, { base_url: provider.url, token: provider.token });
  const blocks = await app.call('GET', '/api/blocks?search=Starter&limit=100');
  const text = blocks.data.find((b: { name: string }) => b.name === 'Starter: text');
  const created = await app.call('POST', '/api/pages', {
    name: 'Spring launch',
    site_id: site.id,
    blocks: [{ block_id: text.id, placeholder_values: { heading: 'Spring', body: 'Soon' } }],
  });
  pageId = created.id;
  // The same session, in a browser set to New York's time.
  context = await app.browser.newContext({
    baseURL: app.service.url,
    viewport: WIDTHS.desktop,
    locale: 'en-GB',
    timezoneId: 'America/New_York',
    storageState: await app.context.storageState(),
  });
  context.setDefaultTimeout(15_000);
  page = await context.newPage();
});
afterAll(async () => {
  await context?.close();
  await provider?.close();
});

async function openPublication() {
  await page.goto(`/pages/${pageId}`);
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish the page' });
  await dialog.waitFor();
  return dialog;
}

async function screenshots(name: string) {
  await mkdir(SCREENSHOTS, { recursive: true });
  for (const [width, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`) });
  }
  await page.setViewportSize(WIDTHS.desktop);
}

describe('Schedule beside Publish', () => {
  it('takes a time in the user’s zone, shows it, and cancels it', { timeout: 90_000 }, async () => {
    const dialog = await openPublication();
    // An article: scheduled with the rubric ids typed for Publish (the service checks them now).
    await dialog.getByRole('textbox', { name: /^Rubric ids/ }).fill('1');
    await dialog.getByRole('button', { name: 'Schedule…' }).click();
    const at = dialog.getByRole('textbox', { name: /^Publish at/ }).or(dialog.getByLabel(/^Publish at/));
    // The box has the focus, and the zone is named in words.
    expect(await at.evaluate((node) => node === document.activeElement)).toBe(true);
    await dialog.getByText('In your time zone: Eastern Standard Time, America/New_York.').waitFor();
    // A time gone by is refused before anything is sent.
    await at.fill('2020-01-15T09:00');
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog.getByText('Choose a time in the future.').waitFor();
    await at.fill('2027-01-15T09:00');
    await screenshots('schedule-form');
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    const scheduled = dialog.getByRole('status', { name: 'Scheduled publication' });
    await scheduled.waitFor();
    const said = await scheduled.textContent();
    expect(said).toMatch(/Friday,? 15 January 2027( at|,) 09:00/);
    expect(said).toContain('your time (Eastern Standard Time, America/New_York)');
    const status = await app.call('GET', `/api/pages/${pageId}/publication`);
    expect(status.scheduled_at).toBe('2027-01-15T14:00:00.000Z');
    await screenshots('schedule-pending');
    expect(await axeViolations(page)).toEqual([]);

    // Seen again after a reload, then cancelled.
    const again = await openPublication();
    await again
      .getByRole('status', { name: 'Scheduled publication' })
      .getByRole('button', { name: 'Cancel schedule' })
      .click();
    await again.getByRole('status', { name: 'Scheduled publication' }).waitFor({ state: 'detached' });
    expect((await app.call('GET', `/api/pages/${pageId}/publication`)).scheduled_at).toBeNull();
    expect(provider.documents.size).toBe(0);
  });

  it('shows how the last scheduled run went', { timeout: 90_000 }, async () => {
    await app.call('POST', `/api/pages/${pageId}/schedule`, {
      publish_at: new Date(Date.now() + 1500).toISOString(),
      rubric_ids: [1],
    });
    await expect
      .poll(async () => (await app.call('GET', `/api/pages/${pageId}/publication`)).last_scheduled_run?.outcome, {
        timeout: 30_000,
        interval: 500,
      })
      .toBe('published');
    const dialog = await openPublication();
    const note = dialog.getByRole('note').filter({ hasText: 'The last scheduled publication went through' });
    await note.waitFor();
    expect(provider.documents.size).toBe(1);
    await screenshots('schedule-last-run');
    expect(await axeViolations(page)).toEqual([]);
  });
});
