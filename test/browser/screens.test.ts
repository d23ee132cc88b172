import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import {
  ADMIN,
  checkScreen,
  sidewaysScrollers,
  launchBrowser,
  newContext,
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

beforeAll(async () => {
  [service, provider, browser] = await Promise.all([startService(), startFakeProvider(), launchBrowser()]);
  context = await newContext(browser, service.url);
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await provider?.close();
  await service?.close();
});

const user = { email: `ann-${Date.now()}@example.com`, password: 'ann-password-1' };

describe('the account screens', () => {
  it('loads the first screen without the editors: no CodeMirror, no JSON Schema forms', async () => {
    const first = await context.newPage();
    const scripts: { url: string; body: string }[] = [];
    first.on('response', (response) => {
      if (response.request().resourceType() === 'script')
        void response.text().then((body) => scripts.push({ url: response.url(), body }));
    });
    await first.goto('/sign-in');
    await first.getByRole('heading', { name: 'Sign in' }).waitFor();
    await first.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    // CodeMirror's editor class and react-jsonschema-form's own ids are in their code, nowhere else.
    expect(scripts.filter((s) => s.body.includes('cm-editor') || s.body.includes('rjsf')).map((s) => s.url)).toEqual(
      [],
    );
    const bytes = scripts.reduce((sum, s) => sum + s.body.length, 0);
    // 640 KB measured (index and useQuery chunks), with 20 KB to spare. The 874 KB once seen here was
    // no module: a build under NODE_ENV=test ships React's development runtime (vite.config.ts forbids it).
    expect(bytes).toBeLessThan(660_000);
    await first.close();
  });

  it('send a visitor to sign-in, accessible at both widths', async () => {
    await page.goto('/api-keys');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).search).toBe('?next=%2Fapi-keys');
    expect(await checkScreen(page, 'sign-in')).toEqual([]);
  });

  it('say plainly that the credentials are wrong', async () => {
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel(/^Password/).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('The email or the password is wrong');
    // The summary has focus, so a screen reader announces it and the keyboard is there.
    expect(await alert.evaluate((node) => node === document.activeElement)).toBe(true);
  });

  it('register a newcomer and sign them in, then on to where they were going', async () => {
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    expect(await checkScreen(page, 'register')).toEqual([]);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel(/^Password/).fill(user.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/api-keys');
  });
});

describe('the shell', () => {
  it('offers a skip link first, and a burger menu at 390 px', async () => {
    await page.goto('/');
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    expect(await checkScreen(page, 'home')).toEqual([]);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to main content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');

    await page.setViewportSize(WIDTHS.mobile);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const burger = page.getByRole('button', { name: 'Open navigation' });
    await burger.click();
    await nav.getByRole('link', { name: 'Sites' }).click();
    await page.getByRole('heading', { name: 'Sites', level: 1 }).waitFor();
    // The menu closes after a choice, so the screen is not hidden under it.
    await page.getByRole('button', { name: 'Open navigation' }).waitFor();
    await page.setViewportSize(WIDTHS.desktop);
  });
});

describe('API keys', () => {
  let key = '';

  it('create a key, shown once with its warning, that works on /api/v1', async () => {
    await page.goto('/api-keys');
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(await checkScreen(page, 'api-keys-empty')).toEqual([]);
    await page.getByRole('textbox', { name: 'Title' }).fill('e2e script');
    await page.getByRole('button', { name: 'Create key' }).click();
    const panel = page.getByRole('status').filter({ hasText: 'cannot be shown again' });
    await panel.waitFor();
    key = (await page.getByLabel('The new API key').textContent()) ?? '';
    expect(key).toMatch(/^pb_[0-9a-f]{64}$/);
    expect(await checkScreen(page, 'api-keys-created')).toEqual([]);
    const sites = await fetch(`${service.url}/api/v1/sites`, { headers: { authorization: `Bearer ${key}` } });
    expect(sites.status).toBe(200);

    await panel.getByRole('button', { name: 'I have stored it' }).click();
    await page.reload();
    await page.getByRole('rowheader', { name: 'e2e script' }).waitFor();
    expect(await page.content()).not.toContain(key);
  });

  it('delete a key after confirmation; it stops working at once', async () => {
    await page.getByRole('button', { name: 'Delete key e2e script' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this key?' });
    await dialog.waitFor();
    expect(await checkScreen(page, 'api-keys-delete')).toEqual([]);
    await dialog.getByRole('button', { name: 'Delete key' }).click();
    await page.getByText('You have no keys yet').waitFor();
    const sites = await fetch(`${service.url}/api/v1/sites`, { headers: { authorization: `Bearer ${key}` } });
    expect(sites.status).toBe(401);
  });
});

describe('sites', () => {
  it('create a site', async () => {
    await page.goto('/sites');
    await page.getByRole('heading', { name: 'Sites', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('News');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.getByRole('rowheader', { name: 'News' }).waitFor();
    expect(await checkScreen(page, 'sites')).toEqual([]);
    expect(await sidewaysScrollers(page)).toEqual([]);
  });
});

describe('sign out', () => {
  it('ends the session', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const me = await page.evaluate(() => fetch('/api/auth/me').then((r) => r.status));
    expect(me).toBe(401);
  });

  it('lets the administrator in', async () => {
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel(/^Password/).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
  });
});
