/**
 * The end-to-end path of a newcomer, in one browser session against the
 * built service and the fake fourcms on loopback: sign up, a key, a site and
 * its provider, a page composed from the library with a bound block and a
 * layout, its stub data in the preview, a refused value fixed at its field,
 * a failed and then a successful publication, and its status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import type { FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { checkScreen, launchBrowser, newContext, startFakeProvider, startService, type Service } from './harness.js';

let service: Service;
let provider: FakeFourcms;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let preview: FrameLocator;

beforeAll(async () => {
  [service, provider, browser] = await Promise.all([startService(), startFakeProvider(), launchBrowser()]);
  context = await newContext(browser, service.url);
  page = await context.newPage();
  preview = page.frameLocator('iframe[title="Page preview"]');
});
afterAll(async () => {
  await browser?.close();
  await provider?.close();
  await service?.close();
});

/** `DOCS_SCREENSHOTS=1 npm run test:browser` also rewrites the README's pictures of the editor under docs/. */
async function docsScreenshot(name: string, top: string) {
  if (process.env.DOCS_SCREENSHOTS !== '1') return;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('heading', { name: top, level: 2 }).evaluate((node) => {
    window.scrollTo(0, node.getBoundingClientRect().top + window.scrollY - 72);
  });
  await page.screenshot({ path: `docs/${name}.png` });
}

const newcomer = { email: `newcomer-${Date.now()}@example.com`, password: 'newcomer-password-1' };

describe('a newcomer’s first published page', () => {
  it('signs up and is led to the first step', async () => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Email').fill(newcomer.email);
    await page.getByLabel(/^Password/).fill(newcomer.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: `Welcome, ${newcomer.email}` }).waitFor();
    await page.getByRole('link', { name: 'Next: create a site' }).waitFor();
  });

  it('creates an API key, shown once', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('textbox', { name: 'Title' }).fill('deploy script');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByLabel('The new API key').textContent()) ?? '';
    expect(key).toMatch(/^pb_[0-9a-f]{64}$/);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('rowheader', { name: 'deploy script' }).waitFor();
  });

  it('creates a site and connects the fake CMS as its provider', async () => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Next: create a site' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Newsroom');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.getByRole('link', { name: 'Newsroom' }).click();
    await page.getByRole('heading', { name: 'CMS provider' }).waitFor();
    await page.getByRole('textbox', { name: 'fourcms API address' }).fill(provider.url);
    await page.getByLabel(/^Token/).fill(provider.token);
    await page.getByRole('button', { name: 'Save provider' }).click();
    await page.getByText('Provider saved.').waitFor();
    // Home now points at the next step: a page.
    await page.getByRole('link', { name: 'Pageblocks' }).click();
    await page.getByRole('link', { name: 'Next: compose a page' }).click();
    await page.getByRole('heading', { name: 'Pages', level: 1 }).waitFor();
  });

  it('composes a page with a layout block and a block bound to live data', async () => {
    await page.getByRole('textbox', { name: 'Name' }).fill('Front page');
    await page.getByRole('button', { name: 'Create page' }).click();
    await page.getByRole('heading', { name: 'Front page', level: 1 }).waitFor();

    // The hero has a required title: it is added with its example (the defaults) and never refused.
    for (const name of ['Starter: hero', 'Starter: two columns']) {
      await page.getByRole('button', { name: 'Add a block', exact: true }).click();
      const drawer = page.getByRole('dialog', { name: 'Add a block', exact: true });
      await drawer.getByRole('textbox', { name: 'Search blocks' }).fill(name.replace('Starter: ', ''));
      await drawer.getByRole('button', { name: `Add ${name}` }).click();
      await drawer.waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: `Edit ${name}` }).waitFor();
    }
    // The bound block goes inside the layout.
    await page.getByRole('button', { name: 'Add a block into Starter: two columns' }).click();
    const drawer = page.getByRole('dialog', { name: 'Add a block into “Starter: two columns”' });
    await drawer.getByRole('textbox', { name: 'Search blocks' }).fill('latest articles');
    await drawer.getByRole('button', { name: 'Add Starter: latest articles' }).click();
    await drawer.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Edit Starter: latest articles' }).waitFor();
    await page
      .getByRole('rowheader', { name: /Starter: latest articles/ })
      .getByText('inside Starter: two columns')
      .waitFor();
  });

  it('shows the bound slot’s stub data in the preview', async () => {
    // The latest articles come from the catalog's sample, not from a live source.
    await preview.getByText('How we redesigned our homepage').waitFor();
    await checkScreen(page, 'e2e-page-editor');
    await docsScreenshot('editor-preview', 'Blocks');
  });

  it('shows a refused value at its field, focused, and takes the fix', async () => {
    await page.getByRole('button', { name: 'Edit Starter: latest articles' }).click();
    const drawer = page.getByRole('dialog', { name: 'Edit “Starter: latest articles”' });
    const heading = drawer.getByRole('textbox', { name: /^Heading/ });
    await heading.fill('x'.repeat(121));
    await drawer.getByRole('button', { name: 'Save changes' }).click();
    await drawer.getByText(/120 characters/).waitFor();
    expect(await heading.evaluate((node) => node === document.activeElement)).toBe(true);

    await heading.fill('Fresh from the newsroom');
    await drawer.getByRole('button', { name: 'Save changes' }).click();
    await drawer.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await drawer.getByRole('button', { name: 'Close' }).first().click();
    await drawer.waitFor({ state: 'hidden' });
    await preview.getByRole('heading', { name: 'Fresh from the newsroom' }).waitFor();
  });

  it('sees the provider’s refusal, then publishes and sees the status', async () => {
    const publication = page.getByRole('region', { name: 'Publication' });
    await publication.getByRole('textbox', { name: /^Rubric ids/ }).fill('1');
    provider.failNext('500');
    await publication.getByRole('button', { name: 'Publish' }).click();
    await publication.getByRole('alert').filter({ hasText: 'The provider refused the publication' }).waitFor();
    expect(provider.documents.size).toBe(0);

    await publication.getByRole('button', { name: 'Publish' }).click();
    await publication.getByRole('status').filter({ hasText: 'Published' }).waitFor();
    const status = publication.getByRole('table', { name: 'Publication status' });
    await status.waitFor();
    expect(await status.getByRole('row', { name: /Provider/ }).textContent()).toContain(provider.url);
    const [document] = [...provider.documents.values()];
    expect(document?.title).toBe('Front page');
    expect(await status.getByRole('row', { name: /Id at the provider/ }).textContent()).toContain(document!.id);
    expect(String(document?.html)).toContain('Fresh from the newsroom');
    await checkScreen(page, 'e2e-published');
    await docsScreenshot('editor-published', 'Publication');
  });
});
