/**
 * Nested fields in the block editor's visual editor, in Chromium against the
 * built service: an object with its own fields and an array of objects built
 * by keyboard and mouse, saved, and the service's refusal of a seventh level
 * shown on the row it names; axe and screenshots at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { checkScreen, launchBrowser, newContext, startService, type Service } from './harness.js';

let service: Service;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [service, browser] = await Promise.all([startService(), launchBrowser()]);
  context = await newContext(browser, service.url);
  page = await context.newPage();
  await page.goto('/register');
  await page.getByLabel('Email').fill(`nia-${Date.now()}@example.com`);
  await page.getByLabel(/^Password/).fill('nia-password-1');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: /Welcome/ }).waitFor();
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** A screen at both widths, with no serious axe violation; focus leaves CodeMirror (its cursor blinks for ever). */
async function accessible(name: string) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const violations = await checkScreen(page, name);
  expect(violations, JSON.stringify(violations, null, 1)).toEqual([]);
}

const row = (name: string) => page.getByRole('group', { name, exact: true });

async function setType(where: ReturnType<typeof row>, type: string, label = 'Type') {
  await where.getByRole('combobox', { name: label, exact: true }).first().click();
  await page.getByRole('option', { name: type, exact: true }).click();
}

describe('nested fields', () => {
  it('builds an object and an array of objects in the visual editor, and the service saves them', async () => {
    await page.goto('/blocks/new');
    await page.getByLabel(/^Block name/).fill('Profile');
    await page.getByRole('button', { name: 'Add a field' }).click();
    await row('Field 1: field_1')
      .getByLabel(/^Field name/)
      .fill('author');
    await setType(row('Field 1: author'), 'object');
    // By keyboard: the nested Add button is reached and pressed like any other.
    await page.getByRole('button', { name: 'Add a field to author' }).focus();
    await page.keyboard.press('Enter');
    await row('Field 1 of author: field_1')
      .getByLabel(/^Field name/)
      .fill('name');
    await row('Field 1 of author: name').getByRole('checkbox', { name: 'Required' }).check();

    await page.getByRole('button', { name: 'Add a field', exact: true }).click();
    await row('Field 2: field_2')
      .getByLabel(/^Field name/)
      .fill('links');
    await setType(row('Field 2: links'), 'array');
    await setType(row('Each item of links'), 'object', 'Type of each item');
    await page.getByRole('button', { name: 'Add a field to links[]' }).click();
    await page.getByRole('button', { name: 'Add a field to links[]' }).click();
    await row('Field 2 of links[]: field_2')
      .getByLabel(/^Field name/)
      .fill('href');
    await setType(row('Field 2 of links[]: href'), 'url');
    await page.getByRole('button', { name: 'Move links[].href up' }).click();
    await row('Field 2 of links[]: field_1')
      .getByLabel(/^Field name/)
      .fill('text');
    await accessible('block-editor-nested-fields');

    await page.getByRole('tab', { name: 'JSON' }).click();
    const json = JSON.parse((await page.getByRole('textbox', { name: 'Fields as JSON' }).textContent()) ?? '');
    expect(json).toEqual([
      { name: 'author', type: 'object', fields: [{ name: 'name', type: 'string', required: true }] },
      {
        name: 'links',
        type: 'array',
        items: {
          type: 'object',
          fields: [
            { name: 'href', type: 'url' },
            { name: 'text', type: 'string' },
          ],
        },
      },
    ]);
    await page.getByRole('tab', { name: 'Visual editor' }).click();
    await page.getByRole('button', { name: 'Create block' }).click();
    await page.getByText('The block is created').waitFor();
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const stored = await (await context.request.get(`/api/blocks/${id}`)).json();
    expect(stored.current_revision.schema_content).toEqual(json);
  });

  it('shows the service’s refusal of a seventh level on the row it names, focused', async () => {
    await page.goto('/blocks/new');
    await page.getByLabel(/^Block name/).fill('Too deep');
    let def: Record<string, unknown> = { name: 'f7', type: 'string' };
    for (let level = 6; level >= 1; level--) def = { name: `f${level}`, type: 'object', fields: [def] };
    await page.getByRole('tab', { name: 'JSON' }).click();
    const editor = page.getByRole('textbox', { name: 'Fields as JSON' });
    await editor.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(JSON.stringify([def]));
    await page.getByRole('tab', { name: 'Visual editor' }).click();
    await page.getByRole('button', { name: 'Create block' }).click();
    const seventh = row('Field 1 of f1.f2.f3.f4.f5.f6: f7');
    await seventh.getByRole('alert').filter({ hasText: 'Fields nest at most 6 levels deep' }).waitFor();
    expect(await seventh.evaluate((node) => node === document.activeElement)).toBe(true);
    await accessible('block-editor-nested-too-deep');
  });
});
