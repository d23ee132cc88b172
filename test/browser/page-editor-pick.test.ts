/**
 * Picking blocks on the page (the page editor's preview): the frame is
 * sandboxed without same-origin, and it runs the blocks' own scripts, which
 * can post what they like. The editor takes from it only a pick of a block
 * of the page, posted by the host page that relays its frame; a pick only
 * chooses which block's fields to show, it never writes, and it never drops
 * unsaved values without asking.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  launchBrowser,
  newContext,
  previewPoint,
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
let ids: { hero: number; spy: number; other: number };
const writes: string[] = [];

/**
 * Forges every message it can think of on load (straight to the app, to the
 * host page with other shapes, for a block of no page), and a well-formed pick
 * of another block whenever the pointer comes over it.
 */
const SPY_JS = `
const target = Number(document.getElementById('spy').dataset.target);
const forged = [
  [top, { pb: 'pick', block: target }],
  [parent, { pb: 'remove', block: target }],
  [parent, { pb: 'pick', block: String(target) }],
  [parent, { pb: 'pick', block: 99999 }],
  [parent, { html: '<p>replaced</p>', title: 'forged' }],
  [parent, { pbSelect: target }],
];
for (const [to, message] of forged) to.postMessage(message, '*');
document.getElementById('spy').addEventListener('mouseover', () => parent.postMessage({ pb: 'pick', block: target }, '*'));
document.getElementById('spy').textContent = 'Spy sent';
`;

beforeAll(async () => {
  [service, browser] = await Promise.all([startService(), launchBrowser()]);
  context = await newContext(browser, service.url);
  page = await context.newPage();
  page.on('request', (request) => {
    if (request.method() !== 'GET' && !/\/preview(\?|$)/.test(request.url())) writes.push(request.url());
  });
  const call = (method: string, path: string, data?: unknown) =>
    sessionCall(service, context.request, method, path, data);
  await call('POST', '/api/auth/register', { email: `pick-${Date.now()}@example.com`, password: 'pick-password-1' });
  const site = await call('POST', '/api/sites', { name: 'Pick' });
  const hero = await call('POST', '/api/blocks', {
    name: 'Hero',
    template: '<h1 style="padding:24px">{{ title }}</h1>',
    schema_content: [{ name: 'title', type: 'string', default: 'Welcome' }],
  });
  const spy = await call('POST', '/api/blocks', {
    name: 'Spy',
    template: '<p id="spy" style="padding:24px" data-target="{{ target }}">Spy</p>',
    js: SPY_JS,
    schema_content: [{ name: 'target', type: 'integer', default: 0 }],
  });
  const other = await call('POST', '/api/blocks', { name: 'Other', template: '<p style="padding:24px">Other</p>' });
  const created = await call('POST', '/api/pages', {
    name: 'Picks',
    site_id: site.id,
    blocks: [
      { block_id: hero.id, placeholder_values: { title: 'Welcome' } },
      { block_id: spy.id },
      { block_id: other.id },
    ],
  });
  pageId = created.id;
  const [heroId, spyId, otherId] = created.blocks.map((b: { id: number }) => b.id);
  ids = { hero: heroId, spy: spyId, other: otherId };
  await call('PUT', `/api/pages/${pageId}/blocks/${spyId}`, { placeholder_values: { target: otherId } });
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

const preview = () => page.frameLocator('iframe[title="Page preview"]').frameLocator('iframe');

describe('picking a block on the page', () => {
  it('takes nothing a block’s script forges on load: no choice, no write, the page as rendered', async () => {
    await page.goto(`/pages/${pageId}`);
    await preview().getByText('Spy sent').waitFor();
    await preview().getByRole('heading', { name: 'Welcome' }).waitFor();
    // The forged messages have been posted; give them time to arrive anywhere they might.
    await page.waitForTimeout(500);
    expect(new URL(page.url()).search).toBe('');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await preview().getByText('replaced').count()).toBe(0);
    expect(writes).toEqual([]);
  });

  it('outlines and names the block under the pointer, and a click opens its fields', async () => {
    const point = await previewPoint(page, 'Page preview', preview().getByRole('heading', { name: 'Welcome' }));
    await page.mouse.move(point.x, point.y);
    const shown = () =>
      preview()
        .locator('pb-outline')
        .evaluateAll((nodes) =>
          nodes.filter((n) => (n as HTMLElement).style.display === 'block').map((n) => n.textContent),
        );
    await expect.poll(shown).toEqual(['Hero']);
    await page.mouse.click(point.x, point.y);
    await page.getByRole('region', { name: 'Edit “Hero”' }).waitFor();
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ tab: 'fields', block: String(ids.hero) });
    // The chosen block stays outlined (solid), the hovered one too.
    await expect.poll(async () => (await shown()).sort()).toEqual(['Hero', 'Hero']);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('never drops unsaved values for a pick: a forged pick of another block asks, and Keep editing keeps them', async () => {
    const fields = page.getByRole('region', { name: 'Edit “Hero”' });
    await fields.getByRole('textbox', { name: /^title/ }).fill('Unsaved title');
    await preview().getByRole('heading', { name: 'Unsaved title' }).waitFor();
    // The spy posts a well-formed pick of "Other" when the pointer comes over it.
    const spy = await previewPoint(page, 'Page preview', preview().locator('#spy'));
    await page.mouse.move(spy.x, spy.y);
    const ask = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect(await fields.getByRole('textbox', { name: /^title/ }).inputValue()).toBe('Unsaved title');
    expect(new URL(page.url()).searchParams.get('block')).toBe(String(ids.hero));
    expect(writes).toEqual([]);
    await page.mouse.move(0, 0);
  });

  it('opens another block once the values are saved', async () => {
    const fields = page.getByRole('region', { name: 'Edit “Hero”' });
    await fields.getByRole('button', { name: 'Save changes' }).click();
    await fields.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const other = await previewPoint(page, 'Page preview', preview().getByText('Other', { exact: true }));
    await page.mouse.click(other.x, other.y);
    await page.getByRole('region', { name: 'Edit “Other”' }).waitFor();
    expect(writes).toHaveLength(1);
    // Back returns to the block before.
    await page.goBack();
    await page.getByRole('region', { name: 'Edit “Hero”' }).waitFor();
  });
});
