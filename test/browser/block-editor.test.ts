import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  ADMIN,
  checkScreen,
  launchBrowser,
  newContext,
  sidewaysScrollers,
  startService,
  type Service,
} from './harness.js';

let service: Service;
let browser: Browser;
let context: BrowserContext;
let page: Page;

/** A real 1×1 PNG: the service checks a cover by its bytes, and the browser must be able to show it. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const author = { email: `bea-${Date.now()}@example.com`, password: 'bea-password-1' };

beforeAll(async () => {
  [service, browser] = await Promise.all([startService(), launchBrowser()]);
  context = await newContext(browser, service.url);
  page = await context.newPage();
  await page.goto('/register');
  await page.getByLabel('Email').fill(author.email);
  await page.getByLabel(/^Password/).fill(author.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: /Welcome/ }).waitFor();
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** Types into a CodeMirror editor by keyboard, as a person would. */
async function typeCode(name: string, text: string) {
  const editor = page.getByRole('textbox', { name });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(text);
}

/** checkScreen waits for animations to end: a focused CodeMirror's cursor blinks for ever, so focus leaves it first. */
async function check(name: string) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  return checkScreen(page, name);
}

describe('a block of your own: create, edit, submit', () => {
  let blockUrl = '';

  it('creates a block with a template and fields, and refuses a bad field name at the field', async () => {
    await page.goto('/blocks');
    await page.getByRole('link', { name: 'New block' }).click();
    await page.getByRole('heading', { name: 'New block' }).waitFor();
    await page.getByLabel(/^Block name/).fill('Promo');
    await page.getByLabel('Description').fill('A title and a line under it');
    await typeCode('Template', '<h2>{{ title }}</h2><p>{{ line }}</p>');
    // Tab leaves the editor: the keyboard is never trapped in it.
    expect(await page.getByRole('textbox', { name: 'Template' }).textContent()).toBe(
      '<h2>{{ title }}</h2><p>{{ line }}</p>',
    );
    // Tab leaves the editor for the next one: the keyboard is never trapped in it.
    await page.keyboard.press('Tab');
    expect(await page.getByRole('textbox', { name: 'CSS' }).evaluate((node) => node === document.activeElement)).toBe(
      true,
    );

    await page.getByRole('button', { name: 'Add a field' }).click();
    await page
      .getByRole('group', { name: 'Field 1: field_1' })
      .getByLabel(/^Field name/)
      .fill('Title');
    await page.getByRole('button', { name: 'Add a field' }).click();
    await page
      .getByRole('group', { name: 'Field 2: field_2' })
      .getByLabel(/^Field name/)
      .fill('line');
    await page.getByRole('tab', { name: 'Preview' }).click();
    await page.getByRole('tab', { name: 'Write' }).click();
    await typeCode('Docs (markdown)', '## Use\n\nAt the top of a page.');
    expect(await check('block-new')).toEqual([]);

    await page.getByRole('button', { name: 'Create block' }).click();
    const name = page.getByRole('group', { name: 'Field 1: Title' }).getByLabel(/^Field name/);
    await expect.poll(() => name.evaluate((node) => node === document.activeElement)).toBe(true);
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    await name.fill('title');
    await page.getByRole('group', { name: 'Field 1: title' }).getByLabel('Required').check();
    await page.getByRole('button', { name: 'Create block' }).click();

    await page.getByRole('heading', { level: 1, name: 'Promo' }).waitFor();
    await page.getByText('The block is created').waitFor();
    await page.getByText('Version 1.0.').waitFor();
    blockUrl = new URL(page.url()).pathname;
    await page.getByRole('rowheader', { name: 'title' }).waitFor();
    expect(await check('block-created')).toEqual([]);
    expect(await sidewaysScrollers(page)).toEqual([]);
  });

  it('keeps the visual editor and the JSON in sync, and warns before a major save', async () => {
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit Promo' }).waitFor();
    // By keyboard: the button is reached with focus and pressed with Enter.
    await page.getByRole('button', { name: 'Move line up' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('group', { name: 'Field 1: line' }).waitFor();
    await page.getByRole('tab', { name: 'JSON' }).click();
    const json = JSON.parse((await page.getByRole('textbox', { name: 'Fields as JSON' }).textContent()) ?? '');
    expect(json.map((f: { name: string }) => f.name)).toEqual(['line', 'title']);
    expect(await check('block-edit-json')).toEqual([]);
    await page.getByRole('tab', { name: 'Visual editor' }).click();

    await page
      .getByRole('group', { name: 'Field 2: title' })
      .getByLabel(/^Field name/)
      .fill('heading');
    await typeCode('Template', '<h2>{{ heading }}</h2><p>{{ line }}</p>');
    await page.getByLabel(/What changed/).fill('The title is now the heading');
    // Unsaved changes are never lost silently: another screen asks first, and staying keeps them.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Block library' }).click();
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await leave.getByRole('button', { name: 'Stay and keep editing' }).click();
    await leave.waitFor({ state: 'hidden' });
    expect(await page.getByLabel(/What changed/).inputValue()).toBe('The title is now the heading');
    await page.getByRole('button', { name: 'Save changes' }).click();
    // The renamed field's values go to its new name (field-mapping.test.ts has a block in use).
    const dialog = page.getByRole('dialog', { name: 'Fields removed' });
    await dialog.waitFor();
    expect(await dialog.getByRole('group', { name: 'Removed field title' }).textContent()).toContain(
      'title is now heading.',
    );
    await dialog.getByRole('status').getByText('No page uses this block yet').waitFor();
    expect(await check('block-major-warning')).toEqual([]);
    await dialog.getByRole('button', { name: 'Save as version 2.0' }).click();

    await page.getByText(/Saved as a major change/).waitFor();
    await page.getByText('Version 2.0.').waitFor();
    const history = page.getByRole('region', { name: 'Revision history' });
    await history.getByRole('rowheader', { name: '2.0' }).waitFor();
    const newest = await history.getByRole('row').nth(1).textContent();
    expect(newest).toContain('Major');
    expect(newest).toContain('The title is now the heading');
  });

  it('uploads a cover, submits the block and sees the rejection with its reason', async () => {
    // A real mouse click on the button opens the file chooser, and the chosen file goes at once.
    const upload = page.getByRole('button', { name: 'Upload cover' });
    const chooser = page.waitForEvent('filechooser');
    await upload.click();
    await (await chooser).setFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
    const cover = page.getByRole('img', { name: 'Cover of Promo' });
    await cover.waitFor();
    expect(await cover.evaluate((img) => (img as HTMLImageElement).naturalWidth > 0)).toBe(true);
    // By keyboard as well: a native button that takes focus, so Enter presses it. (Chromium does not
    // always open a second chooser moments after the first, so the keyboard's chooser is not awaited.)
    const replace = page.getByRole('button', { name: 'Replace cover' });
    await replace.focus();
    expect(await replace.evaluate((node) => node.tagName === 'BUTTON' && node === document.activeElement)).toBe(true);

    await page.getByRole('button', { name: 'Submit to the global catalog' }).click();
    const status = page.getByRole('status', { name: 'Submission status' });
    await status.getByText('Pending review').waitFor();
    expect(await check('block-page-own')).toEqual([]);
    expect(await sidewaysScrollers(page)).toEqual([]);

    // An administrator rejects it with a reason, on the moderation screen.
    const adminContext = await newContext(browser, service.url);
    const admin = await adminContext.newPage();
    await admin.goto('/sign-in');
    await admin.getByLabel('Email').fill(ADMIN.email);
    await admin.getByLabel(/^Password/).fill(ADMIN.password);
    await admin.getByRole('button', { name: 'Sign in' }).click();
    await admin.getByRole('heading', { name: /Welcome/ }).waitFor();
    // Nothing is decided from the queue: the submission is opened and reviewed first.
    await admin.goto('/admin/moderation');
    await admin
      .getByRole('link', { name: /^Review Promo / })
      .first()
      .click();
    await admin.getByRole('heading', { name: /^Review: Promo/ }).waitFor();
    await admin.getByRole('button', { name: 'Reject', exact: true }).click();
    const decision = admin.getByRole('dialog', { name: 'Reject this submission?' });
    await decision.getByLabel(/^Reason/).fill('Too close to the starter hero');
    await decision.getByRole('button', { name: 'Reject' }).click();
    await decision.waitFor({ state: 'hidden' });
    await adminContext.close();

    await page.goto(blockUrl);
    await status.getByText('Rejected').waitFor();
    expect(await status.textContent()).toContain('Reason: Too close to the starter hero');
    await page.getByRole('button', { name: 'Submit again' }).waitFor();
  });

  it('shows the library, the own block among the global ones, without sideways scrolling at 390 px', async () => {
    await page.goto('/blocks');
    await page.getByRole('link', { name: 'Promo' }).waitFor();
    await page.getByRole('link', { name: 'Starter: hero' }).waitFor();
    expect(await check('block-library')).toEqual([]);
    expect(await sidewaysScrollers(page)).toEqual([]);
  });

  it('deletes the block after a confirmation that names it', async () => {
    await page.goto(blockUrl);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this block?' });
    expect(await dialog.textContent()).toContain('“Promo” is deleted with all its revisions');
    expect(await check('block-delete-confirm')).toEqual([]);
    await dialog.getByRole('button', { name: 'Delete block' }).click();
    await page.getByRole('heading', { name: 'Block library', level: 1 }).waitFor();
    await page.getByRole('status').filter({ hasText: '“Promo” is deleted.' }).waitFor();
    expect(await page.getByRole('link', { name: 'Promo' }).count()).toBe(0);
    const gone = await page.request.get(blockUrl.replace('/blocks', '/api/blocks'));
    expect(gone.status()).toBe(404);
  });
});
