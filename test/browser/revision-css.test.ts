/**
 * Each instance looks like its revision: one block at two revisions on one
 * page, each instance in its own revision's colour, whatever order the
 * revisions' CSS comes in (the older revision's rules used to come last and
 * win for both), in Chromium's computed style.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, startService, type Service, sessionCall } from './harness.js';

let service: Service;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let pageId = 0;

const call = (request: APIRequestContext, method: string, path: string, data?: unknown) =>
  sessionCall(service, request, method, path, data);

const RED = 'rgb(200, 0, 0)';
const BLUE = 'rgb(0, 0, 200)';

beforeAll(async () => {
  [service, browser] = await Promise.all([startService(), launchBrowser()]);
  context = await newContext(browser, service.url);
  page = await context.newPage();
  const api = context.request;
  await call(api, 'POST', '/api/auth/register', { email: `css-${Date.now()}@example.com`, password: 'css-password-1' });
  const site = await call(api, 'POST', '/api/sites', { name: 'Colours' });
  const block = (
    await call(api, 'POST', '/api/blocks', {
      name: 'Notice',
      template: '<p class="notice">{{ text }}</p>',
      css: `.notice { color: ${RED}; }`,
      schema_content: [{ name: 'text', type: 'string', required: true }],
    })
  ).id;
  const created = await call(api, 'POST', '/api/pages', {
    name: 'Two revisions',
    site_id: site.id,
    blocks: ['first', 'second', 'third'].map((text) => ({ block_id: block, placeholder_values: { text } })),
  });
  pageId = created.id;
  // Only the CSS changes; then the first instance alone is upgraded: the page holds 1.1, 1.0, 1.0 in that order.
  await call(api, 'PUT', `/api/blocks/${block}`, { css: `.notice { color: ${BLUE}; }` });
  await call(api, 'POST', `/api/pages/${pageId}/blocks/${created.blocks[0].id}/upgrade`);
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('a page with one block at two revisions', () => {
  it('shows each instance in its own revision’s colour, each revision’s CSS once', async () => {
    const response = await page.goto(`/api/pages/${pageId}/preview`);
    expect(response!.status()).toBe(200);
    const colours = await page
      .locator('p.notice')
      .evaluateAll((nodes) => nodes.map((node) => [node.textContent, getComputedStyle(node).color]));
    expect(colours).toEqual([
      ['first', BLUE],
      ['second', RED],
      ['third', RED],
    ]);
    // Two instances of one revision share one copy of its CSS.
    const css = await page.locator('style').evaluateAll((nodes) => nodes.map((node) => node.textContent).join(''));
    expect(css.split(RED)).toHaveLength(2);
    expect(css.split(BLUE)).toHaveLength(2);
    // The wrapper takes no box of its own: the instance's paragraph is laid out as before.
    const wrappers = await page
      .locator('pb-instance')
      .evaluateAll((nodes) => nodes.map((node) => getComputedStyle(node).display));
    expect(wrappers).toEqual(['contents', 'contents', 'contents']);
  });
});
