/**
 * The page editor at 390 px: one column switched between the page and its
 * panel, its blocks cards (as in the panel beside the page at 1280 px),
 * nothing scrolls sideways, a block clicked on the page opens its fields, and
 * blocks are still ordered by keyboard (the Up/Down buttons, or the drag
 * handle) and by dragging with the mouse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import {
  checkScreen,
  launchBrowser,
  newContext,
  sidewaysScrollers,
  startService,
  WIDTHS,
  type Service,
  previewPoint,
  sessionCall,
} from './harness.js';

let service: Service;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let pageId = 0;

const call = (request: APIRequestContext, method: string, path: string, data?: unknown) =>
  sessionCall(service, request, method, path, data);

/** The page's block names in the service's order. */
async function stored(): Promise<string[]> {
  const body = await call(context.request, 'GET', `/api/pages/${pageId}?with_blocks=1`);
  return body.blocks.map((b: { block: { name: string } }) => b.block.name);
}

beforeAll(async () => {
  [service, browser] = await Promise.all([startService(), launchBrowser()]);
  context = await newContext(browser, service.url);
  page = await context.newPage();
  const api = context.request;
  await call(api, 'POST', '/api/auth/register', { email: `nar-${Date.now()}@example.com`, password: 'nar-password-1' });
  const site = await call(api, 'POST', '/api/sites', { name: 'Narrow' });
  const ids: number[] = [];
  for (const name of ['Alpha block with a rather long name', 'Beta', 'Gamma'])
    ids.push((await call(api, 'POST', '/api/blocks', { name, template: `<p>${name}</p>` })).id);
  pageId = (
    await call(api, 'POST', '/api/pages', {
      name: 'Ordering',
      site_id: site.id,
      blocks: ids.map((id) => ({ block_id: id })),
    })
  ).id;
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** The Page | Edit switch under 1280 px. */
const view = (label: 'Page' | 'Edit') =>
  page.getByRole('radiogroup', { name: 'View' }).getByText(label, { exact: true }).click();
const list = () => page.getByRole('list', { name: 'Blocks on the page' });
const settled = (names: string[]) => expect.poll(stored, { timeout: 10_000 }).toEqual(names);

describe('the page editor at 390 px', () => {
  it('shows the page beside its panel at 1280 px, one column under it, accessible, and nothing scrolls sideways', async () => {
    await page.goto(`/pages/${pageId}`);
    await list().waitFor();
    // Side by side: the page takes at least 60 % of the width, the panel the rest, and neither covers the other.
    const frame = (await page.locator('iframe[title="Page preview"]').boundingBox())!;
    const panel = (await page.getByRole('tablist', { name: 'Edit the page' }).boundingBox())!;
    expect(frame.x + frame.width).toBeLessThanOrEqual(panel.x);
    expect(frame.width / WIDTHS.desktop.width).toBeGreaterThanOrEqual(0.6);
    expect(panel.width).toBeGreaterThanOrEqual(420);
    expect(await checkScreen(page, 'page-editor-blocks')).toEqual([]);
    expect(await sidewaysScrollers(page)).toEqual([]);
    await page.setViewportSize(WIDTHS.mobile);
    // Under 1280 px the page is shown first, and Edit shows the panel in its place.
    await page.locator('iframe[title="Page preview"]').waitFor();
    expect(await list().isVisible()).toBe(false);
    await view('Edit');
    await list().waitFor();
    expect(await page.locator('iframe[title="Page preview"]').isVisible()).toBe(false);
    expect(await list().getByRole('listitem').count()).toBe(3);
    expect(await checkScreen(page, 'page-editor-edit')).toEqual([]);
  });

  it("opens the page's preview at the phone's width, and the desktop one can still be chosen", async () => {
    await page.setViewportSize(WIDTHS.mobile);
    await page.reload();
    await page.getByText('390 px wide').waitFor();
    await page.getByText('Desktop', { exact: true }).click();
    await page.getByText('1280 px wide').waitFor();
    await page.getByText('Mobile', { exact: true }).click();
  });

  it('opens a block clicked on the page in Edit, on its Fields tab, and Show on page goes back', async () => {
    const preview = page.frameLocator('iframe[title="Page preview"]').frameLocator('iframe');
    const point = await previewPoint(page, 'Page preview', preview.getByText('Beta', { exact: true }));
    await page.mouse.click(point.x, point.y);
    const fields = page.getByRole('region', { name: 'Edit “Beta”' });
    await fields.waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('fields');
    expect(await page.locator('iframe[title="Page preview"]').isVisible()).toBe(false);
    // The place is in the address: a reload opens the same block, in Edit.
    await page.reload();
    await fields.waitFor();
    await fields.getByRole('button', { name: 'Show on page' }).click();
    await page.locator('iframe[title="Page preview"]').waitFor();
    await view('Edit');
    await page.getByRole('tab', { name: 'Blocks' }).click();
    await list().waitFor();
  });

  it('orders them by keyboard', async () => {
    await list().getByRole('button', { name: 'Move Gamma up' }).focus();
    await page.keyboard.press('Enter');
    await settled(['Alpha block with a rather long name', 'Gamma', 'Beta']);
  });

  it('orders them with the Up and Down buttons', async () => {
    await list().getByRole('button', { name: 'Move Gamma down' }).click();
    await settled(['Alpha block with a rather long name', 'Beta', 'Gamma']);
  });

  /**
   * dnd-kit's keyboard sensor starts listening for keys in a timer set when the
   * drag starts (so that the key that started it is not taken as a move), and
   * React may show the drag (aria-pressed) before that timer runs: keys pressed
   * in between are lost. A timer set now runs after it.
   */
  const keysListened = () => page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));

  it('orders them from the keyboard on the drag handle, announcing it by name', async () => {
    const handle = list().getByRole('button', { name: 'Drag Gamma' });
    const live = page.getByRole('status').filter({ hasText: /Gamma/ });
    await handle.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => handle.getAttribute('aria-pressed')).toBe('true');
    await keysListened();
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => live.textContent()).toBe('Gamma would go in the place of Beta.');
    await page.keyboard.press('Space');
    await expect.poll(() => live.textContent()).toBe('Gamma was dropped in the place of Beta.');
    await settled(['Alpha block with a rather long name', 'Gamma', 'Beta']);
  });

  it('puts a block back when its keyboard drag is cancelled', async () => {
    const handle = list().getByRole('button', { name: 'Drag Beta' });
    const live = page.getByRole('status').filter({ hasText: /Beta/ });
    await handle.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => handle.getAttribute('aria-pressed')).toBe('true');
    await keysListened();
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => live.textContent()).toBe('Beta would go in the place of Gamma.');
    await page.keyboard.press('Escape');
    await expect.poll(() => live.textContent()).toBe('Moving Beta was cancelled; it stays where it was.');
    await expect.poll(() => handle.getAttribute('aria-pressed')).toBe(null);
    expect(await stored()).toEqual(['Alpha block with a rather long name', 'Gamma', 'Beta']);
  });

  it('orders them by dragging with the mouse', async () => {
    const handle = list().getByRole('button', { name: 'Drag Gamma' });
    const target = list().getByRole('button', { name: 'Drag Alpha block with a rather long name' });
    // hover() waits until the handle stands still, so the press lands on it.
    await handle.hover();
    await page.mouse.down();
    const to = (await target.boundingBox())!;
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 - 10, { steps: 12 });
    await page.mouse.up();
    await settled(['Gamma', 'Alpha block with a rather long name', 'Beta']);
    await page.setViewportSize(WIDTHS.desktop);
  });
});
