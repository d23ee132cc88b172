/**
 * The browser tests' start-up, once: the built service and Chromium started
 * before the file's tests and stopped after them, one context at the desktop
 * width, one page, and a signed-up user whose session the context holds.
 *
 *   const app = browserFixture();            // at the top of a test file
 *   it('…', async () => { await app.page.goto('/pages'); … app.call('POST', '/api/sites', {…}) });
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, newContext, sessionCall, startService, type Service } from './harness.js';

export interface BrowserFixture {
  service: Service;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** The signed-up user of this file. */
  user: { email: string; password: string };
  /** A call on the session contour with the context's cookie (throws on a refusal). */
  call(method: string, path: string, data?: unknown): Promise<any>;
}

export function browserFixture(options: { env?: Record<string, string>; user?: string } = {}): BrowserFixture {
  const fixture = {} as BrowserFixture;
  beforeAll(async () => {
    [fixture.service, fixture.browser] = await Promise.all([startService(options.env), launchBrowser()]);
    fixture.context = await newContext(fixture.browser, fixture.service.url);
    fixture.page = await fixture.context.newPage();
    fixture.call = (method, path, data) => sessionCall(fixture.service, fixture.context.request, method, path, data);
    fixture.user = { email: `${options.user ?? 'user'}-${Date.now()}@example.com`, password: 'a-long-password-1' };
    await fixture.call('POST', '/api/auth/register', fixture.user);
  });
  afterAll(async () => {
    await fixture.browser?.close();
    await fixture.service?.close();
  });
  return fixture;
}
