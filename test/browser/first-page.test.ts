/**
 * The end-to-end path of a newcomer, in one browser session against the
 * built service and the fake fourcms on loopback, in the order a person takes
 * it: sign up, a key, a site and its provider, a block of their own made in
 * the block editor (a template, a field and a live-data slot), a page composed
 * of it, a starter block and a layout, the slot's stub data in the preview, a
 * value only the service refuses shown at its field (focused) and fixed, a
 * failed and then a successful publication, and its status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import type { FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import {
  checkScreen,
  launchBrowser,
  previewPoint,
  newContext,
  sidewaysScrollers,
  startFakeProvider,
  startService,
  type Service,
} from './harness.js';

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
  preview = page.frameLocator('iframe[title="Page preview"]').frameLocator('iframe');
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

/** Pastes into a CodeMirror editor (typed, Liquid's `{%` would get its `%}` closed for it). */
async function pasteCode(name: string, text: string) {
  await page.getByRole('textbox', { name }).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
}

/** Picks an option of a Mantine Select or MultiSelect: opens it, clicks the option, closes the list. */
async function chooseOption(input: Locator, option: string) {
  await input.click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
}

/** Back to the page's outline, the Blocks tab of the panel beside the page. */
async function showBlocks() {
  await page.getByRole('tab', { name: 'Blocks' }).click();
  await page.getByRole('list', { name: 'Blocks on the page' }).waitFor();
}

const TEMPLATE = '<h2>{{ heading }}</h2><ul>{% for article in articles %}<li>{{ article.title }}</li>{% endfor %}</ul>';

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
    // A mistyped token is saved, and the provider's refusal is told at once, not at publication.
    await page.getByLabel(/^Token/).fill(`${provider.token}-typo`);
    await page.getByRole('button', { name: 'Save provider' }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'Saved, but the provider did not accept it' });
    expect(await refused.textContent()).toMatch(/fourcms answered 401 Unauthorized: invalid token/);
    await page.getByRole('button', { name: 'Check connection' }).click();
    await page.getByRole('alert').filter({ hasText: 'The provider did not accept the settings' }).waitFor();
    await page.getByLabel(/^Token/).fill(provider.token);
    await page.getByRole('button', { name: 'Save provider' }).click();
    await page.getByText('Provider saved. fourcms answered and accepted the token.').waitFor();
    expect(await refused.count()).toBe(0);
    await page.getByRole('button', { name: 'Check connection' }).click();
    await page.getByText('fourcms answered and accepted the token.', { exact: true }).waitFor();
    // Home now points at the next step: a page.
    await page.getByRole('link', { name: 'Pageblocks' }).click();
    await page.getByRole('link', { name: 'Next: compose a page' }).click();
    await page.getByRole('heading', { name: 'Pages', level: 1 }).waitFor();
  });

  it('creates a block with a template, a field and a live-data slot in the block editor', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Block library' }).click();
    await page.getByRole('link', { name: 'New block' }).click();
    await page.getByRole('heading', { name: 'New block', level: 1 }).waitFor();
    await page.getByLabel(/^Block name/).fill('Headlines');
    await page.getByLabel('Description').fill('A heading over the titles of the latest articles');
    await pasteCode('Template', TEMPLATE);
    expect(await page.getByRole('textbox', { name: 'Template' }).textContent()).toBe(TEMPLATE);

    await page.getByRole('button', { name: 'Add a field' }).click();
    const heading = page.getByRole('group', { name: 'Field 1: field_1' });
    await heading.getByLabel(/^Field name/).fill('heading');
    await page.getByRole('button', { name: 'Add a field' }).click();
    const slot = page.getByRole('group', { name: 'Field 2: field_2' });
    await slot.getByLabel(/^Field name/).fill('articles');
    await chooseOption(
      page.getByRole('group', { name: 'Field 2: articles' }).getByLabel('Type', { exact: true }),
      'binding',
    );
    await chooseOption(
      page.getByRole('group', { name: 'Field 2: articles' }).getByLabel('Allowed data sources'),
      'Latest articles (articles.latest)',
    );
    await page.getByRole('button', { name: 'Create block' }).click();

    await page.getByRole('heading', { level: 1, name: 'Headlines' }).waitFor();
    await page.getByText('The block is created').waitFor();
    const slots = page.getByRole('region', { name: 'Live data' });
    expect(await slots.getByRole('row', { name: /articles/ }).textContent()).toContain('articles.latest');
  });

  it('composes a page of that block inside a layout, with a starter block', async () => {
    await page.getByRole('link', { name: 'Pageblocks' }).click();
    await page.getByRole('link', { name: 'Next: compose a page' }).click();
    await page.getByRole('heading', { name: 'Pages', level: 1 }).waitFor();
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
    // The block just made goes inside the layout.
    await page.getByRole('button', { name: 'Add inside Starter: two columns' }).click();
    const drawer = page.getByRole('dialog', { name: 'Add a block into “Starter: two columns”' });
    await drawer.getByRole('textbox', { name: 'Search blocks' }).fill('Headlines');
    await drawer.getByRole('button', { name: 'Add Headlines' }).click();
    await drawer.waitFor({ state: 'hidden' });
    await page
      .getByRole('list', { name: 'Blocks on the page' })
      .getByRole('listitem')
      .filter({ hasText: 'Headlines' })
      .getByText('inside Starter: two columns')
      .waitFor();
  });

  it('binds the slot to live data and shows its stub data in the preview', async () => {
    await page.getByRole('button', { name: 'Edit Headlines' }).click();
    const drawer = page.getByRole('region', { name: 'Edit “Headlines”' });
    await drawer.getByRole('textbox', { name: /^heading/ }).fill('Fresh from the newsroom');
    await drawer.getByRole('combobox', { name: /^Source/ }).selectOption('articles.latest');
    await drawer.getByRole('textbox', { name: /^limit/ }).fill('2');
    await drawer.getByRole('button', { name: 'Save changes' }).click();
    await drawer.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await showBlocks();

    // The latest articles come from the catalog's sample, never from a live source.
    await preview.getByRole('heading', { name: 'Fresh from the newsroom' }).waitFor();
    await preview.getByText('How we redesigned our homepage').waitFor();
    expect(await checkScreen(page, 'e2e-page-editor')).toEqual([]);
    // Its blocks, a layout's child among them, are cards at 390 px: nothing scrolls sideways.
    expect(await sidewaysScrollers(page)).toEqual([]);
    await docsScreenshot('editor-preview', 'Preview');
  });

  it('opens a block by clicking it on the page; a value only the service refuses shows at its field, focused, and the fix is taken', async () => {
    // Hovering outlines the block and names it; clicking it opens its fields beside the page.
    const heading = preview.getByRole('heading', { name: 'Fresh from the newsroom' });
    const point = await previewPoint(page, 'Page preview', heading);
    await page.mouse.move(point.x, point.y);
    await expect
      .poll(() =>
        preview
          .locator('pb-outline')
          .evaluateAll((nodes) =>
            nodes.map((n) => ((n as HTMLElement).style.display === 'block' ? n.textContent : null)),
          ),
      )
      .toContain('Headlines');
    await page.mouse.click(point.x, point.y);
    const drawer = page.getByRole('region', { name: 'Edit “Headlines”' });
    await drawer.waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('fields');
    const limit = drawer.getByRole('textbox', { name: /^limit/ });
    // The params form checks nothing in the browser: 500 reaches the service, which answers
    // 400 with errors[].path bindings.articles.params.limit (the source allows at most 50).
    const refused = page.waitForResponse(
      (response) => response.request().method() === 'PUT' && /\/api\/pages\/\d+\/blocks\/\d+$/.test(response.url()),
    );
    await limit.fill('500');
    await drawer.getByRole('button', { name: 'Save changes' }).click();
    const body = (await (await refused).json()) as { errors: { path: string; message: string }[] };
    expect(body.errors.map((e) => e.path)).toEqual(['bindings.articles.params.limit']);
    const message = body.errors[0]!.message;
    await expect.poll(() => limit.evaluate((node) => node === document.activeElement)).toBe(true);
    // Tied to the field: its accessible description (what a screen reader says with it) is the message.
    const description = () =>
      limit.evaluate((node) =>
        (node.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      );
    expect(await description()).toContain(message);
    // And shown next to it: visible, just under the input.
    const shown = drawer.getByText(message, { exact: true }).filter({ visible: true });
    expect(await shown.count()).toBe(1);
    const [input, error] = [await limit.boundingBox(), await shown.boundingBox()];
    expect(error!.y).toBeGreaterThanOrEqual(input!.y + input!.height - 1);
    expect(error!.y).toBeLessThan(input!.y + input!.height + 40);
    expect(await checkScreen(page, 'e2e-server-error')).toEqual([]);

    await limit.fill('3');
    await drawer.getByRole('button', { name: 'Save changes' }).click();
    await drawer.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    // Gone from the field and, once its debounced render is back, from the block's preview too.
    await expect.poll(() => drawer.getByText(message).count()).toBe(0);
    expect(await description()).not.toContain(message);
    await showBlocks();
  });

  it('sees the provider’s refusal, then publishes and sees the status', async () => {
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const publication = page
      .getByRole('dialog', { name: 'Publish the page' })
      .getByRole('region', { name: 'Publication' });
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
    expect(String(document?.html)).toContain('<h2>Fresh from the newsroom</h2>');
    // The editor's marks are for its preview only.
    expect(String(document?.html)).not.toContain('pb-block');
    expect(await checkScreen(page, 'e2e-published')).toEqual([]);
    await docsScreenshot('editor-published', 'Publication');
    await page.keyboard.press('Escape');
    await publication.waitFor({ state: 'hidden' });
  });

  it('cannot delete the block while the page uses it, and is told which page and what to do', async () => {
    // The page editor takes the whole width: the navigation is behind the burger there.
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Block library' }).click();
    await page.getByRole('link', { name: 'Headlines' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this block?' });
    await dialog.getByRole('button', { name: 'Delete block' }).click();
    const alert = dialog.getByRole('alert');
    await alert.getByText('The block is still used on pages').waitFor();
    expect(await alert.textContent()).toContain('remove “Headlines” from it, then delete the block again');
    await alert
      .getByRole('list', { name: 'Pages that use the block' })
      .getByRole('link', { name: 'Front page' })
      .waitFor();
    expect(await checkScreen(page, 'e2e-block-in-use')).toEqual([]);
    await alert.getByRole('link', { name: 'Front page' }).click();
    await page.getByRole('heading', { name: 'Front page', level: 1 }).waitFor();
  });
});
