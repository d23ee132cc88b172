/**
 * The page editor at 390 px: its blocks are cards, as on every other screen,
 * nothing scrolls sideways, and they are still ordered by keyboard (the
 * Up/Down buttons, or the drag handle) and by dragging with the mouse.
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

const list = () => page.getByRole('list', { name: 'Blocks on the page' });
const settled = (names: string[]) => expect.poll(stored, { timeout: 10_000 }).toEqual(names);

describe('the page editor at 390 px', () => {
  it('shows the blocks as cards, accessible, and nothing scrolls sideways', async () => {
    await page.goto(`/pages/${pageId}`);
    await page.getByRole('table', { name: 'Blocks on the page' }).waitFor();
    expect(await checkScreen(page, 'page-editor-blocks')).toEqual([]);
    expect(await sidewaysScrollers(page)).toEqual([]);
    await page.setViewportSize(WIDTHS.mobile);
    await list().waitFor();
    expect(await page.getByRole('table', { name: 'Blocks on the page' }).count()).toBe(0);
    expect(await list().getByRole('listitem').count()).toBe(3);
  });

  it("opens the page's preview at the phone's width, and the desktop one can still be chosen", async () => {
    await page.reload();
    await list().waitFor();
    await page.getByText('390 px wide').waitFor();
    await page.getByText('Desktop', { exact: true }).click();
    await page.getByText('1280 px wide').waitFor();
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
