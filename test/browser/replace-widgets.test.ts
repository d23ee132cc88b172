/**
 * The Replace dialog (a major change of a block on the page) asks for the new
 * version's values with the same widgets as the Fields tab: a multi-line box,
 * the rich-text editor, the colour picker, the media library with alt text,
 * and list cards with "Add <item>".
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserFixture } from './fixture.js';
import { axeViolations, SCREENSHOTS, WIDTHS } from './harness.js';

const app = browserFixture({ user: 'replacer' });

const RED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==',
  'base64',
);

describe('the Replace dialog', () => {
  it(
    'draws the new version’s fields with the editor’s widgets, and replaces with their values',
    { timeout: 120_000 },
    async () => {
      const { page, call } = app;
      const site = await call('POST', '/api/sites', { name: 'Replace' });
      const block = await call('POST', '/api/blocks', {
        name: 'Card',
        template: '<div class="card">{{ title }}</div>',
        schema_content: [{ name: 'title', type: 'string', label: 'Title', required: true }],
      });
      const created = await call('POST', '/api/pages', {
        name: 'Cards',
        site_id: site.id,
        blocks: [{ block_id: block.id, placeholder_values: { title: 'Old card' } }],
      });
      // Major: the title goes, and every kind of widget comes.
      await call('PUT', `/api/blocks/${block.id}`, {
        template:
          '<div class="card" style="color: {{ accent }}"><p>{{ body }}</p>{{ story }}<img src="{{ photo }}" alt="{{ photo.alt }}">' +
          '{% for l in links %}<a href="#">{{ l.label }}</a>{% endfor %}</div>',
        schema_content: [
          { name: 'body', type: 'text', label: 'Body', required: true },
          { name: 'story', type: 'richtext', label: 'Story' },
          { name: 'accent', type: 'color', label: 'Accent', default: '#1e3a8a' },
          { name: 'photo', type: 'image', label: 'Photo' },
          {
            name: 'links',
            type: 'array',
            label: 'Links',
            items: { type: 'object', label: 'Link', fields: [{ name: 'label', type: 'string', label: 'Label' }] },
          },
        ],
      });
      await page.goto(`/pages/${created.id}?tab=updates`);
      await page.getByRole('button', { name: 'Replace Card…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Replace “Card” with its new version' });
      await dialog
        .getByRole('table', { name: 'Values that will be lost' })
        .getByRole('row', { name: /Old card/ })
        .waitFor();

      // A multi-line box: Enter is a new line, never the dialog's submit.
      const body = dialog.getByRole('textbox', { name: /^Body/ });
      expect(await body.evaluate((node) => node.tagName)).toBe('TEXTAREA');
      await body.fill('First line');
      await body.press('End');
      await body.press('Enter');
      await body.pressSequentially('Second line');
      expect(await dialog.isVisible()).toBe(true);
      // The rich-text editor with its toolbar.
      await dialog.getByRole('toolbar', { name: 'Story formatting' }).waitFor();
      await dialog.getByRole('textbox', { name: 'Story (rich text)' }).fill('A story');
      // The colour picker.
      await dialog.getByRole('button', { name: 'Pick accent' }).click();
      await page.getByRole('slider', { name: 'Accent: hue' }).focus();
      // Escape closes the picker alone: the dialog and what is typed in it stay.
      await page.keyboard.press('Escape');
      await page.getByRole('slider', { name: 'Accent: hue' }).waitFor({ state: 'hidden' });
      expect(await dialog.isVisible()).toBe(true);
      await dialog.getByRole('textbox', { name: 'Accent' }).fill('#e03131');
      // The media library, with alt text.
      await dialog.getByRole('button', { name: 'Choose photo…' }).click();
      const library = page.getByRole('dialog', { name: 'Choose an image for “Photo”' });
      await library.getByText('No images on this site yet').waitFor();
      await library.getByRole('textbox', { name: 'Alt text' }).focus();
      await page.keyboard.press('Escape');
      await library.waitFor({ state: 'hidden' });
      expect(await body.inputValue()).toBe('First line\nSecond line');
      await dialog.getByRole('button', { name: 'Choose photo…' }).click();
      await library.getByRole('textbox', { name: 'Alt text' }).fill('A red dot');
      await library
        .locator('input[type="file"]')
        .setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: RED_PNG });
      await library.waitFor({ state: 'hidden' });
      expect(await dialog.getByRole('textbox', { name: 'Photo alt text' }).inputValue()).toBe('A red dot');
      // A list's items as cards, added with "Add link".
      await dialog.getByRole('button', { name: 'Add link' }).click();
      await dialog.getByRole('textbox', { name: /^Label/ }).fill('Home');

      for (const [width, size] of Object.entries(WIDTHS)) {
        await page.setViewportSize(size);
        await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
        await mkdir(SCREENSHOTS, { recursive: true });
        await page.screenshot({ path: join(SCREENSHOTS, `replace-widgets-${width}.png`), fullPage: true });
      }
      await page.setViewportSize(WIDTHS.desktop);
      expect(await axeViolations(page)).toEqual([]);

      await dialog.getByRole('button', { name: 'Replace block' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const stored = await call('GET', `/api/pages/${created.id}?with_blocks=1`);
      const values = stored.blocks[0].placeholder_values;
      expect(values).toMatchObject({
        body: 'First line\nSecond line',
        story: '<p>A story</p>',
        accent: '#e03131',
        photo: { src: expect.stringMatching(/\/uploads\/sites\/\d+\/[0-9a-f]+\.png$/), alt: 'A red dot' },
        links: [{ label: 'Home' }],
      });
      expect(values).not.toHaveProperty('title');
    },
  );
});
