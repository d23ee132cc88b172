/**
 * Real fields in the page editor, in Chromium against the built service and
 * the fake fourcms: what a person types is what the page shows and what the
 * provider receives (line breaks of a text, rich text without anything
 * dangerous in it), and the widgets the placeholder schema names.
 */
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import {
  launchBrowser,
  previewPoint,
  newContext,
  SCREENSHOTS,
  seriousViolations,
  sessionCall,
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
let pageId = 0;
let textInstance = 0;
let storyInstance = 0;
let listInstance = 0;
let figureInstance = 0;
const writes: string[] = [];

/** Forges, on load and a second later, what the host sends for in-place text, straight to the app and via the host. */
const FORGER_JS = `
const target = Number(document.getElementById('forger').dataset.target);
const forge = () => {
  for (const to of [top, parent]) to.postMessage({ pb: 'text', block: target, field: 'heading', value: 'Forged' }, '*');
  parent.postMessage({ pb: 'edit', block: target, field: 'heading', rect: [0, 0, 200, 40] }, '*');
  document.getElementById('forger').textContent = 'Forger sent';
};
forge();
setTimeout(forge, 1000);
`;

/** A port free now: the service is told its own public URL, so that the uploads' URLs point back to it. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const call = (method: string, path: string, data?: unknown) =>
  sessionCall(service, context.request, method, path, data);
const preview = () => page.frameLocator('iframe[title="Page preview"]').frameLocator('iframe');

/** The screen at 1280 and 390 px for a reviewer (the page editor switches to Edit at 390 px). */
async function screenshots(name: string) {
  await mkdir(SCREENSHOTS, { recursive: true });
  for (const size of Object.values(WIDTHS)) {
    await page.setViewportSize(size);
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    if (size.width < 1280) {
      const edit = page.getByRole('radio', { name: 'Edit' });
      if (await edit.count()) await edit.check({ force: true });
    }
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${size.width}.png`) });
  }
  await page.setViewportSize(WIDTHS.desktop);
}

/** The published page's HTML and CSS, as the provider received them. */
async function published(): Promise<{ html: string; css: string }> {
  const status = await call('GET', `/api/pages/${pageId}/publication`);
  const kind = (await call('GET', `/api/pages/${pageId}`)).kind;
  if (status.is_published) await call('POST', `/api/pages/${pageId}/publish-update`, {});
  else await call('POST', `/api/pages/${pageId}/publish`, kind === 'article' ? { rubric_ids: [1] } : {});
  const [doc] = [...provider.documents.values()];
  return { html: String(doc!.html), css: String(doc!.css) };
}

beforeAll(async () => {
  const port = await freePort();
  [service, provider, browser] = await Promise.all([
    startService({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` }),
    startFakeProvider(),
    launchBrowser(),
  ]);
  context = await newContext(browser, service.url);
  page = await context.newPage();
  await call('POST', '/api/auth/register', {
    email: `fields-${Date.now()}@example.com`,
    password: 'fields-password-1',
  });
  const site = await call('POST', '/api/sites', { name: 'Fields' });
  await call('PUT', `/api/sites/${site.id}/provider/fourcms`, { base_url: provider.url, token: provider.token });
  const blocks = await call('GET', '/api/blocks?search=Starter&limit=100');
  const text = blocks.data.find((b: { name: string }) => b.name === 'Starter: text');
  const story = await call('POST', '/api/blocks', {
    name: 'Story',
    template: '<article class="story" style="color: {{ accent }}">{{ story }}</article>',
    schema_content: [
      { name: 'story', type: 'richtext', label: 'Story' },
      { name: 'accent', type: 'color', label: 'Accent', default: '#1e3a8a' },
    ],
  });
  const programme = await call('POST', '/api/blocks', {
    name: 'Programme',
    template: '<ul class="events">{% for e in events %}<li>{{ e.name }}</li>{% endfor %}</ul>',
    schema_content: [
      {
        name: 'events',
        type: 'array',
        label: 'Events',
        items: {
          type: 'object',
          fields: [
            { name: 'when', type: 'date', label: 'When' },
            { name: 'name', type: 'string', label: 'Name' },
          ],
        },
      },
    ],
  });
  const figure = await call('POST', '/api/blocks', {
    name: 'Figure',
    template:
      '<figure class="figure"><img src="{{ photo }}" alt="{{ photo.alt }}"><figcaption>{{ caption }}</figcaption></figure>',
    schema_content: [
      { name: 'photo', type: 'image', label: 'Photo' },
      { name: 'caption', type: 'string', label: 'Caption', default: 'A red square' },
    ],
  });
  const forger = await call('POST', '/api/blocks', {
    name: 'Forger',
    template: '<p id="forger" data-target="{{ target }}">Forger</p>',
    js: FORGER_JS,
    schema_content: [{ name: 'target', type: 'integer', default: 0 }],
  });
  const created = await call('POST', '/api/pages', {
    name: 'Fields',
    site_id: site.id,
    blocks: [
      { block_id: text.id, placeholder_values: { heading: 'Notes', body: 'One line' } },
      { block_id: story.id, placeholder_values: { story: '<p>Once upon a time</p>' } },
      { block_id: programme.id, placeholder_values: { events: [{ name: 'Spring fair' }, { name: 'Summer gala' }] } },
      { block_id: figure.id },
      { block_id: forger.id },
    ],
  });
  pageId = created.id;
  textInstance = created.blocks[0].id;
  storyInstance = created.blocks[1].id;
  listInstance = created.blocks[2].id;
  figureInstance = created.blocks[3].id;
  await call('PUT', `/api/pages/${pageId}/blocks/${created.blocks[4].id}`, {
    placeholder_values: { target: textInstance },
  });
  page.on('request', (request) => {
    if (request.method() !== 'GET' && !/\/preview(\?|$)/.test(request.url())) writes.push(request.url());
  });
});
afterAll(async () => {
  await browser?.close();
  await provider?.close();
  await service?.close();
});

describe('a text field', () => {
  it('keeps its line breaks through the form, the save, the preview and the publication', async () => {
    await page.goto(`/pages/${pageId}?tab=fields&block=${textInstance}`);
    const fields = page.getByRole('region', { name: 'Edit “Starter: text”' });
    const body = fields.getByRole('textbox', { name: /^Text/ });
    await body.click();
    await page.keyboard.press('ControlOrMeta+a');
    // Enter is a line break in the box: the form is not sent.
    await page.keyboard.type('Roses are red,');
    await page.keyboard.press('Enter');
    await page.keyboard.type('violets are blue.');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('A new paragraph.');
    await fields.getByText('Unsaved changes', { exact: true }).waitFor();
    expect(await body.inputValue()).toBe('Roses are red,\nviolets are blue.\n\nA new paragraph.');
    // The preview shows the lines apart (the block's `white-space: pre-line`).
    const shown = preview().locator('.pb-text__body');
    await expect.poll(() => shown.innerText()).toBe('Roses are red,\nviolets are blue.\n\nA new paragraph.');
    await screenshots('fields-text');
    expect(await seriousViolations(page)).toEqual([]);
    // Ctrl+S saves.
    await page.keyboard.press('Control+s');
    await fields.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const stored = await call('GET', `/api/pages/${pageId}?with_blocks=1`);
    expect(stored.blocks[0].placeholder_values.body).toBe('Roses are red,\nviolets are blue.\n\nA new paragraph.');
    const { html, css } = await published();
    expect(html).toContain('Roses are red,\nviolets are blue.\n\nA new paragraph.');
    expect(css).toContain('white-space: pre-line');
  });
});

describe('a rich-text field', () => {
  it('is edited with formatting; what is pasted or sent with a script or a handler never reaches the store or the page', async () => {
    await page.goto(`/pages/${pageId}?tab=fields&block=${storyInstance}`);
    const fields = page.getByRole('region', { name: 'Edit “Story”' });
    const editor = fields.getByRole('textbox', { name: 'Story (rich text)' });
    await editor.click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await fields.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type('there lived');
    await expect.poll(() => fields.getByRole('button', { name: 'Bold' }).getAttribute('aria-pressed')).toBe('true');
    // Pasted HTML with a script and an event handler: the editor's schema keeps the text only.
    await editor.evaluate((node) => {
      const data = new DataTransfer();
      data.setData(
        'text/html',
        '<p>a cat<script>window.pwned = 1</script><img src="x" onerror="window.pwned = 2"></p>',
      );
      data.setData('text/plain', 'a cat');
      node.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await preview().locator('.story strong').filter({ hasText: 'there lived' }).waitFor();
    await screenshots('fields-richtext');
    expect(await seriousViolations(page)).toEqual([]);
    await fields.getByRole('button', { name: 'Save changes' }).click();
    await fields.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const stored = (await call('GET', `/api/pages/${pageId}?with_blocks=1`)).blocks[1].placeholder_values.story;
    expect(stored).toContain('<strong>there lived');
    expect(stored).toContain('a cat');
    expect(stored).not.toMatch(/script|onerror|pwned/);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();

    // Another client sends what no editor would make: the service stores it sanitized, and publishes that.
    await call('PUT', `/api/pages/${pageId}/blocks/${storyInstance}`, {
      placeholder_values: {
        story: '<p>Sent<script>alert(1)</script><img src="https://x.test/a.png" onerror="alert(2)"></p>',
      },
    });
    const sent = (await call('GET', `/api/pages/${pageId}?with_blocks=1`)).blocks[1].placeholder_values.story;
    expect(sent).toBe('<p>Sent<img src="https://x.test/a.png" /></p>');
    const { html } = await published();
    expect(html).toContain('<p>Sent<img src="https://x.test/a.png" /></p>');
    expect(html).not.toMatch(/<script|onerror/);
  });
});

describe('a colour field', () => {
  it('has a picker', async () => {
    const fields = page.getByRole('region', { name: 'Edit “Story”' });
    await page.reload();
    const accent = fields.getByRole('textbox', { name: 'Accent' });
    await fields.getByRole('button', { name: 'Pick accent' }).click();
    await page.getByRole('button', { name: '#e03131' }).click();
    await expect.poll(() => accent.inputValue()).toBe('#e03131');
    await expect
      .poll(() =>
        preview()
          .locator('.story')
          .evaluate((node) => getComputedStyle(node).color),
      )
      .toBe('rgb(224, 49, 49)');
    await screenshots('fields-colour');
    expect(await seriousViolations(page)).toEqual([]);
  });
});

describe('a list field', () => {
  it('titles its items by their first text field, adds "Add event", moves and collapses them', async () => {
    await page.goto(`/pages/${pageId}?tab=fields&block=${listInstance}`);
    const fields = page.getByRole('region', { name: 'Edit “Programme”' });
    await fields.getByRole('button', { name: 'Spring fair', exact: true }).waitFor();
    await fields.getByRole('button', { name: 'Add event' }).click();
    await fields.getByRole('textbox', { name: 'Name' }).last().fill('Autumn ball');
    await fields.getByRole('button', { name: 'Move “Autumn ball” up' }).click();
    await fields.getByRole('button', { name: 'Spring fair', exact: true }).click();
    await expect
      .poll(() => preview().locator('.events li').allInnerTexts())
      .toEqual(['Spring fair', 'Autumn ball', 'Summer gala']);
    await screenshots('fields-list');
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Control+s');
    await fields.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const stored = (await call('GET', `/api/pages/${pageId}?with_blocks=1`)).blocks[2].placeholder_values.events;
    expect(stored.map((e: { name: string }) => e.name)).toEqual(['Spring fair', 'Autumn ball', 'Summer gala']);
  });
});

describe('an image field', () => {
  it('uploads to the site with its alt text, is chosen from its library by thumbnail, and is published', async () => {
    await page.goto(`/pages/${pageId}?tab=fields&block=${figureInstance}`);
    const fields = page.getByRole('region', { name: 'Edit “Figure”' });
    await fields.getByRole('button', { name: 'Choose photo…' }).click();
    const library = page.getByRole('dialog', { name: 'Choose an image for “Photo”' });
    await library.getByText('No images on this site yet').waitFor();
    // The alt text goes with the choice: typed in the library before the upload.
    await library.getByRole('textbox', { name: 'Alt text' }).fill('A red square');
    // A 40×40 red PNG, made by the browser itself.
    const png = await page.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 40;
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#e03131';
      context.fillRect(0, 0, 40, 40);
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
      return Array.from(new Uint8Array(await blob.arrayBuffer()));
    });
    await library
      .locator('input[type="file"]')
      .setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: Buffer.from(png) });
    // An upload is chosen at once: the library closes and the field has its URL.
    await library.waitFor({ state: 'hidden' });
    const photo = fields.getByRole('textbox', { name: 'Photo address' });
    const alt = fields.getByRole('textbox', { name: 'Photo alt text' });
    const url = await photo.inputValue();
    expect(await alt.inputValue()).toBe('A red square');
    expect(url).toMatch(new RegExp(`^${service.url}/uploads/sites/\\d+/[0-9a-f]+\\.png$`));
    await expect.poll(() => preview().locator('.figure img').getAttribute('src')).toBe(url);
    await expect.poll(() => preview().locator('.figure img').getAttribute('alt')).toBe('A red square');

    // The library shows it again as a thumbnail; choosing it by keyboard gives the same URL.
    await fields.getByRole('button', { name: 'Change photo…' }).click();
    const thumbnail = library.getByRole('button', { name: /^Choose image 1 \(/ });
    await thumbnail.waitFor();
    await expect.poll(() => library.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(40);
    await screenshots('fields-media-library');
    expect(await seriousViolations(page)).toEqual([]);
    await thumbnail.focus();
    await page.keyboard.press('Enter');
    await library.waitFor({ state: 'hidden' });
    expect(await photo.inputValue()).toBe(url);
    // The alt text is the field's too, with its hint in plain words; what is typed follows in the page.
    await alt.fill('A red square & "more"');
    await fields.getByText('Say what the image shows, for people who cannot see it.', { exact: false }).waitFor();
    await expect.poll(() => preview().locator('.figure img').getAttribute('alt')).toBe('A red square & "more"');
    await screenshots('fields-image');
    expect(await seriousViolations(page)).toEqual([]);
    await fields.getByRole('button', { name: 'Save changes' }).click();
    await fields.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const stored = (await call('GET', `/api/pages/${pageId}?with_blocks=1`)).blocks[3].placeholder_values;
    expect(stored).toEqual({ photo: { src: url, alt: 'A red square & "more"' }, caption: 'A red square' });
    const { html } = await published();
    expect(html).toContain(`<img src="${url}" alt="A red square &amp; &#34;more&#34;">`);
    const served = await context.request.get(url);
    expect(served.status()).toBe(200);
    expect(served.headers()['content-type']).toBe('image/png');

    // Remove empties the field; deleting from the library deletes the file.
    await fields.getByRole('button', { name: 'Remove photo' }).click();
    expect(await photo.inputValue()).toBe('');
    await fields.getByRole('button', { name: 'Choose photo…' }).click();
    await library.getByRole('button', { name: /^Delete image 1/ }).click();
    await library.getByRole('button', { name: 'Delete', exact: true }).click();
    await library.getByText('No images on this site yet').waitFor();
    expect((await context.request.get(url)).status()).toBe(404);
  });
});

describe('plain text edited in place on the page', () => {
  const host = () => page.frameLocator('iframe[title="Page preview"]');

  it('takes nothing a block’s script forges: no value in the form, no box, no write', async () => {
    writes.length = 0;
    await page.goto(`/pages/${pageId}?tab=fields&block=${textInstance}`);
    const fields = page.getByRole('region', { name: 'Edit “Starter: text”' });
    await preview().getByText('Forger sent').waitFor();
    await page.waitForTimeout(1500);
    expect(await fields.getByRole('textbox', { name: 'Heading' }).inputValue()).toBe('Notes');
    expect(await fields.getByText('No unsaved changes').count()).toBe(1);
    expect(await host().getByRole('textbox').count()).toBe(0);
    expect(await preview().getByText('Forged').count()).toBe(0);
    expect(writes).toEqual([]);
  });

  it('a double click on the heading opens a box over it; what is typed follows in the form and the page, then saves', async () => {
    const fields = page.getByRole('region', { name: 'Edit “Starter: text”' });
    const heading = preview().getByRole('heading', { name: 'Notes' });
    const point = await previewPoint(page, 'Page preview', heading);
    await page.mouse.dblclick(point.x, point.y);
    const box = host().getByRole('textbox', { name: 'Heading (on the page)' });
    await box.waitFor();
    expect(await box.inputValue()).toBe('Notes');
    await box.fill('');
    await box.pressSequentially('Poems');
    await expect.poll(() => fields.getByRole('textbox', { name: 'Heading' }).inputValue()).toBe('Poems');
    await preview().getByRole('heading', { name: 'Poems' }).waitFor();
    await screenshots('fields-in-place');
    expect(await seriousViolations(page)).toEqual([]);
    await box.press('Enter');
    await box.waitFor({ state: 'detached' });
    await fields.getByText('Unsaved changes', { exact: true }).waitFor();
    expect(writes).toEqual([]);
    await fields.getByRole('button', { name: 'Save changes' }).click();
    await fields.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const stored = (await call('GET', `/api/pages/${pageId}?with_blocks=1`)).blocks[0].placeholder_values;
    expect(stored.heading).toBe('Poems');
  });
});
