/**
 * axe-core on every screen of the app and every dialog or drawer it opens,
 * with every impact counted (moderate and minor included, not only serious),
 * printed as a table for the reviewer. A violation fails the walk unless it is
 * in EXPLAINED below, with the reason it stays.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserFixture } from './fixture.js';
import { ADMIN, axeViolations, sessionCall, WIDTHS, type Violation } from './harness.js';

const app = browserFixture({ user: 'walker' });

/** A 1×1 red PNG, for the media library's grid. */
const RED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==',
  'base64',
);

/** Violations that stay, by rule id, each with why. None so far. */
const EXPLAINED: Record<string, string> = {};

interface Seen {
  place: string;
  violations: Violation[];
}
const seen: Seen[] = [];

async function judge(place: string, page: Page) {
  seen.push({ place, violations: await axeViolations(page) });
}

/** A screen at its address, judged once its level-1 heading is there (an error screen: its alert). */
async function screen(page: Page, path: string, heading: string | RegExp | null, place = path) {
  await page.goto(path);
  if (heading === null) await page.getByRole('alert').first().waitFor();
  else await page.getByRole('heading', { level: 1, name: heading }).first().waitFor();
  await page.waitForLoadState('networkidle');
  await judge(place, page);
}

/** A dialog opened by a button, judged open (and `check`ed), then closed with Escape. */
async function dialog(
  page: Page,
  place: string,
  open: () => Promise<void>,
  name: string | RegExp,
  check?: (opened: Locator) => Promise<void>,
) {
  await open();
  const opened = page.getByRole('dialog', { name });
  await opened.waitFor();
  await judge(place, page);
  await check?.(opened);
  await page.keyboard.press('Escape');
  await opened.waitFor({ state: 'hidden' });
}

describe('axe on every screen and every dialog', () => {
  it('finds no violation of any impact left unexplained', { timeout: 300_000 }, async () => {
    const { page } = app;
    const block = await app.call('POST', '/api/blocks', {
      name: 'Notice',
      description: 'A short notice with a heading, shown at the top of a page when something changes for everyone',
      template: '<h2>{{ heading }}</h2><p>{{ words }}</p>',
      schema_content: [
        { name: 'heading', label: 'Heading', type: 'string', required: true, max_length: 60 },
        { name: 'words', label: 'Words', type: 'text' },
        { name: 'shown', label: 'Shown', type: 'boolean', default: true },
      ],
    });
    const figure = await app.call('POST', '/api/blocks', {
      name: 'Figure',
      template: '<figure style="border-color: {{ accent }}"><img src="{{ photo }}" alt="{{ photo.alt }}"></figure>',
      schema_content: [
        { name: 'photo', label: 'Photo', type: 'image' },
        { name: 'accent', label: 'Accent', type: 'color', default: '#1e3a8a' },
      ],
    });
    const site = await app.call('POST', '/api/sites', { name: 'Harbour news' });
    await app.call('POST', '/api/folders', { site_id: site.id, name: 'News' });
    const created = await app.call('POST', '/api/pages', {
      name: 'Opening hours',
      site_id: site.id,
      blocks: [
        { block_id: block.id, placeholder_values: { heading: 'Open', words: 'At nine' } },
        { block_id: block.id, placeholder_values: { heading: 'Closed', words: 'On Sunday' } },
        { block_id: figure.id },
      ],
    });
    const pageId = created.id as number;
    const pbId = created.blocks[0].id as number;
    const figureId = created.blocks[2].id as number;
    await app.call('POST', '/api/api-keys', { title: 'Walk' });

    await screen(page, '/', /Welcome/);
    await screen(page, '/sites', 'Sites');
    await screen(page, `/sites/${site.id}`, 'Harbour news', '/sites/{id}');
    await dialog(
      page,
      '/sites/{id} · delete site',
      () => page.getByRole('button', { name: 'Delete site' }).click(),
      /Delete/,
    );
    await dialog(
      page,
      '/sites/{id} · rename folder',
      () => page.getByRole('button', { name: 'Rename folder News' }).click(),
      /Rename/,
    );
    await screen(page, '/pages', 'Pages');
    await screen(page, `/pages/${pageId}`, 'Opening hours', '/pages/{id} · Blocks');
    await dialog(
      page,
      '/pages/{id} · add a block',
      () => page.getByRole('button', { name: 'Add a block' }).first().click(),
      'Add a block',
      async (opened) => {
        // Beside a long description, each Add button shows its whole word (it was clipped to "Ad").
        const add = opened.getByRole('button', { name: 'Add Notice' });
        await add.waitFor();
        const fits = await add.evaluate((node) => {
          const label = node.querySelector('.mantine-Button-label') ?? node;
          return label.scrollWidth <= label.clientWidth && node.getBoundingClientRect().width >= 40;
        });
        expect(fits, 'the Add button shows its whole word').toBe(true);
      },
    );
    await dialog(
      page,
      '/pages/{id} · remove a block',
      () => page.getByRole('button', { name: 'Remove Notice 1' }).click(),
      /Remove/,
    );
    await dialog(page, '/pages/{id} · details', () => page.getByRole('button', { name: 'Details' }).click(), /./);
    await dialog(page, '/pages/{id} · publish', () => page.getByRole('button', { name: 'Publish' }).click(), /Publish/);
    await screen(page, `/pages/${pageId}?tab=fields&block=${pbId}`, 'Opening hours', '/pages/{id} · Fields');
    // The fields' own dialogs: the media library (empty, then with an image) and the colour picker.
    await screen(
      page,
      `/pages/${pageId}?tab=fields&block=${figureId}`,
      'Opening hours',
      '/pages/{id} · Fields (image, colour)',
    );
    const library = 'Choose an image for “Photo”';
    await dialog(
      page,
      '/pages/{id} · media library, empty',
      () => page.getByRole('button', { name: 'Choose photo…' }).click(),
      library,
      async (opened) => {
        await opened.getByText('No images on this site yet').waitFor();
        await opened.getByRole('textbox', { name: 'Alt text' }).fill('A red square');
        await opened
          .locator('input[type="file"]')
          .setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: RED_PNG });
        // An upload is chosen at once: the library closes.
        await opened.waitFor({ state: 'hidden' });
      },
    );
    await dialog(
      page,
      '/pages/{id} · media library, an image',
      async () => {
        await page.getByRole('button', { name: 'Change photo…' }).click();
        await page.getByRole('button', { name: /^Choose image 1 \(/ }).waitFor();
        await page.waitForLoadState('networkidle');
      },
      library,
      async (opened) => {
        await opened.getByRole('button', { name: /^Delete image 1/ }).click();
        await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
        await judge('/pages/{id} · media library, asking before a delete', page);
      },
    );
    await dialog(
      page,
      '/pages/{id} · colour picker',
      () => page.getByRole('button', { name: 'Pick accent' }).click(),
      /accent/i,
      async () => {
        await page.getByRole('slider', { name: 'Accent: hue' }).waitFor();
      },
    );
    await screen(page, `/pages/${pageId}?tab=history`, 'Opening hours', '/pages/{id} · History');
    await screen(page, `/pages/${pageId}?tab=updates`, 'Opening hours', '/pages/{id} · Updates');
    await screen(page, '/pages/abc', null, '/pages/abc (no such page)');
    await screen(page, '/blocks', 'Block library');
    await screen(page, '/blocks/new', /New block|Create/, '/blocks/new');
    await screen(page, `/blocks/${block.id}`, 'Notice', '/blocks/{id}');
    await dialog(
      page,
      '/blocks/{id} · delete block',
      () =>
        page
          .getByRole('button', { name: /^Delete/ })
          .first()
          .click(),
      'Delete this block?',
    );
    await screen(page, `/blocks/${block.id}/edit`, /Notice/, '/blocks/{id}/edit');
    await screen(page, `/blocks/${block.id}/upgrade`, /Upgrade Notice/, '/blocks/{id}/upgrade');
    await screen(page, '/api-keys', 'API keys');
    await dialog(
      page,
      '/api-keys · delete key',
      () => page.getByRole('button', { name: 'Delete key Walk' }).click(),
      /Delete/,
    );
    await screen(page, '/webhooks', 'Webhooks');
    await screen(page, '/no/such/screen', /./, 'an address that names nothing');

    // The navigation drawer at 390 px, open.
    await page.setViewportSize(WIDTHS.mobile);
    await screen(page, '/pages', 'Pages', '/pages at 390 px');
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sites' }).waitFor();
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await judge('navigation drawer open at 390 px', page);
    await page.setViewportSize(WIDTHS.desktop);

    // A lost session's dialog, over the editor.
    await page.goto(`/pages/${pageId}?tab=fields&block=${pbId}`);
    await page.getByRole('heading', { level: 1, name: 'Opening hours' }).waitFor();
    await page.waitForLoadState('networkidle');
    await app.call('POST', '/api/auth/logout');
    await page.getByRole('textbox', { name: /^Heading/ }).fill('Open soon');
    // The preview of the typed value meets the 401 first, or else the save does.
    const signIn = page.getByRole('dialog', { name: 'Sign in to go on' });
    await signIn.waitFor({ timeout: 3000 }).catch(() => page.getByRole('button', { name: 'Save changes' }).click());
    await signIn.waitFor();
    await judge('the sign-in dialog of a lost session', page);
    await signIn.getByLabel(/^Password/).fill(app.user.password);
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await signIn.waitFor({ state: 'hidden' });

    // The administrator's screens.
    await sessionCall(app.service, app.context.request, 'POST', '/api/auth/logout');
    await sessionCall(app.service, app.context.request, 'POST', '/api/auth/login', ADMIN);
    await screen(page, '/admin/users', /Users/);
    await screen(page, '/admin/moderation', /Moderation|Submissions/);
    await screen(page, '/admin/deprecation', /Deprecat/);
    await screen(page, '/admin/catalog', /Catalog|Data/);

    // Signed out: sign-in and sign-up.
    await sessionCall(app.service, app.context.request, 'POST', '/api/auth/logout');
    await screen(page, '/sign-in', 'Sign in');
    await screen(page, '/register', /Create|Sign up|Register/);

    const rows = seen.flatMap(({ place, violations }) =>
      violations.length
        ? violations.map((v) => ({
            place,
            rule: v.id,
            impact: v.impact,
            nodes: v.nodes.length,
            explained: EXPLAINED[v.id] ? 'yes' : 'NO',
          }))
        : [{ place, rule: '—', impact: 'none', nodes: 0, explained: '' }],
    );
    console.log(`axe-core, every impact, on ${seen.length} screens and dialogs:`);
    console.table(rows);
    const unexplained = seen.flatMap(({ place, violations }) =>
      violations.filter((v) => !EXPLAINED[v.id]).map((v) => ({ place, ...v })),
    );
    expect(unexplained).toEqual([]);
  });
});
