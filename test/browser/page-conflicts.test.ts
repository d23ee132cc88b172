/**
 * No lost updates, and a site that is behind, in the editor (issue 26, points
 * 4 and 5). Two tabs (two pages of one browser context, one session) edit the
 * same page: the second save is refused (the editor sends If-Match with the
 * version it shows), a dialog says so in words, shows what changed elsewhere,
 * and reloads (after asking, as it loses unsaved values) or keeps the
 * person's change to save it on top. Then a published page changed since:
 * "Changed since publication" in the editor's header with what changed, in
 * the pages list with its filter, gone once an update is published. Over
 * SQLite, or PostgreSQL with DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import {
  launchBrowser,
  newContext,
  seriousViolations,
  sessionCall,
  startFakeProvider,
  startService,
  type Service,
} from './harness.js';

let service: Service;
let provider: FakeFourcms;
let browser: Browser;
let context: BrowserContext;
let tabA: Page;
let tabB: Page;
let siteId = 0;
let heroId = 0;

const call = (method: string, path: string, data?: unknown) =>
  sessionCall(service, context.request, method, path, data);
const stored = async (id: number) => {
  const page = await call('GET', `/api/pages/${id}?with_blocks=1`);
  return { version: page.version as number, values: page.blocks[0].placeholder_values as Record<string, string> };
};
const preview = (tab: Page) => tab.frameLocator('iframe[title="Page preview"]').frameLocator('iframe');
const heading = (tab: Page) => tab.getByRole('textbox', { name: 'Heading' });
const subtitle = (tab: Page) => tab.getByRole('textbox', { name: 'Subtitle' });
const conflict = (tab: Page) => tab.getByRole('dialog', { name: 'This page was changed elsewhere' });

async function save(tab: Page) {
  await tab.getByRole('button', { name: 'Save changes' }).click();
}

beforeAll(async () => {
  [service, provider, browser] = await Promise.all([startService(), startFakeProvider(), launchBrowser()]);
  context = await newContext(browser, service.url);
  [tabA, tabB] = [await context.newPage(), await context.newPage()];
  await call('POST', '/api/auth/register', { email: `two-${Date.now()}@example.com`, password: 'two-tabs-password-1' });
  const site = await call('POST', '/api/sites', { name: 'Two tabs' });
  siteId = site.id;
  await call('PUT', `/api/sites/${siteId}/provider/fourcms`, { base_url: provider.url, token: provider.token });
  const hero = await call('POST', '/api/blocks', {
    name: 'Hero',
    template: '<h1>{{ heading_text }}</h1><p>{{ subtitle }}</p>',
    schema_content: [
      { name: 'heading_text', label: 'Heading', type: 'string' },
      { name: 'subtitle', label: 'Subtitle', type: 'string' },
    ],
  });
  heroId = hero.id;
});
afterAll(async () => {
  await browser?.close();
  await provider?.close();
  await service?.close();
});

const newPage = async (name: string) => {
  const created = await call('POST', '/api/pages', {
    name,
    site_id: siteId,
    blocks: [{ block_id: heroId, placeholder_values: { heading_text: 'First', subtitle: 'Plain' } }],
  });
  return { id: created.id as number, block: created.blocks[0].id as number };
};

describe('two tabs on one page', () => {
  let page = { id: 0, block: 0 };

  it('the second save is refused in words, and nothing of the first is overwritten', async () => {
    page = await newPage('Shared');
    for (const tab of [tabA, tabB]) {
      await tab.goto(`/pages/${page.id}?tab=fields&block=${page.block}`);
      await heading(tab).waitFor();
    }
    await tabA.bringToFront();
    await heading(tabA).fill('From A');
    await save(tabA);
    await tabA.getByText('Saved. The page preview shows the new version.').waitFor();
    expect(await stored(page.id)).toEqual({ version: 2, values: { heading_text: 'From A', subtitle: 'Plain' } });

    // B still shows version 1 (and its form the heading "First"): its save would write "First" back.
    await tabB.bringToFront();
    expect(await heading(tabB).inputValue()).toBe('First');
    await subtitle(tabB).fill('From B');
    await save(tabB);
    const dialog = conflict(tabB);
    await dialog.waitFor();
    await dialog.getByText('Your last change was not saved, and nothing of theirs was overwritten.').waitFor();
    expect(await dialog.textContent()).toContain('It is now at version 2; you were editing version 1.');
    expect(await stored(page.id)).toEqual({ version: 2, values: { heading_text: 'From A', subtitle: 'Plain' } });
    expect(await seriousViolations(tabB)).toEqual([]);
  });

  it('shows what changed elsewhere, by block name and field label', async () => {
    const dialog = conflict(tabB);
    await dialog.getByRole('button', { name: 'See what changed' }).click();
    const changes = dialog.getByRole('list', { name: 'Changes from version 1 to version 2' });
    await changes.getByText('Hero › Heading: First → From A').waitFor();
    expect(await changes.textContent()).not.toContain('placeholder_values');
  });

  it('reloads after asking, since that loses the unsaved values; then a save goes on top of the other', async () => {
    const dialog = conflict(tabB);
    await dialog.getByRole('button', { name: 'Reload the page' }).click();
    const ask = dialog.getByRole('alert').filter({ hasText: 'Reload and lose your unsaved changes?' });
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Back' }).click();
    await ask.waitFor({ state: 'hidden' });
    await dialog.getByRole('button', { name: 'Reload the page' }).click();
    await dialog.getByRole('button', { name: 'Reload and lose my changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // The form starts again from the page as it is now; the preview shows it.
    await expect.poll(() => heading(tabB).inputValue()).toBe('From A');
    expect(await subtitle(tabB).inputValue()).toBe('Plain');
    await preview(tabB).getByRole('heading', { name: 'From A' }).waitFor();
    await subtitle(tabB).fill('From B');
    await save(tabB);
    await tabB.getByText('Saved. The page preview shows the new version.').waitFor();
    expect(await stored(page.id)).toEqual({ version: 3, values: { heading_text: 'From A', subtitle: 'From B' } });
  });

  it('keeps the person’s change when asked, to be saved over the current page', async () => {
    // A shows version 2 now: a move of its own is refused too, and nothing moves.
    await tabA.bringToFront();
    await heading(tabA).fill('A again');
    await save(tabA);
    const dialog = conflict(tabA);
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Keep my changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await heading(tabA).inputValue()).toBe('A again');
    expect((await stored(page.id)).version).toBe(3);
    await save(tabA);
    await tabA.getByText('Saved. The page preview shows the new version.').waitFor();
    // On top of version 3, as chosen: A's form still had the subtitle it read.
    expect(await stored(page.id)).toEqual({ version: 4, values: { heading_text: 'A again', subtitle: 'Plain' } });
  });

  it('guards every page write, not only values: a stale removal is refused and the block stays', async () => {
    await call('PUT', `/api/pages/${page.id}/blocks/${page.block}`, {
      placeholder_values: { heading_text: 'Elsewhere', subtitle: 'Plain' },
    });
    await tabA.goto(`/pages/${page.id}?tab=blocks`);
    await tabA.getByRole('heading', { name: 'Shared', level: 1 }).waitFor();
    // Changed after the tab read it.
    await call('PUT', `/api/pages/${page.id}`, { name: 'Shared, renamed' });
    await tabA.getByRole('button', { name: 'Remove Hero' }).click();
    await tabA
      .getByRole('dialog', { name: 'Remove this block?' })
      .getByRole('button', { name: 'Remove block' })
      .click();
    await conflict(tabA).waitFor();
    const after = await call('GET', `/api/pages/${page.id}?with_blocks=1`);
    expect(after.blocks).toHaveLength(1);
    expect(after.version).toBe(6);
  });
});

describe('changed since publication', () => {
  let page = { id: 0, block: 0 };

  it('says so in the header once the page changed after its publication, with what changed', async () => {
    page = await newPage('Published story');
    await call('POST', `/api/pages/${page.id}/publish`, { rubric_ids: [3] });
    await tabA.goto(`/pages/${page.id}`);
    await tabA.getByRole('heading', { name: 'Published story', level: 1 }).waitFor();
    await preview(tabA).getByRole('heading', { name: 'First' }).waitFor();
    expect(await tabA.getByText('Changed since publication').count()).toBe(0);

    await call('PUT', `/api/pages/${page.id}/blocks/${page.block}`, {
      placeholder_values: { heading_text: 'Second', subtitle: 'Plain' },
    });
    await tabA.reload();
    await tabA.getByText('Changed since publication', { exact: true }).waitFor();
    await tabA.getByRole('button', { name: 'What changed since publication' }).click();
    const dialog = tabA.getByRole('dialog', { name: 'Changed since publication' });
    await dialog.getByText('The site shows version 1; the page is at version 2.', { exact: false }).waitFor();
    await dialog.getByText('Hero › Heading: First → Second').waitFor();
    expect(await seriousViolations(tabA)).toEqual([]);
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('marks and filters the page in the pages list', async () => {
    const draft = await newPage('Never published');
    await tabA.goto('/pages');
    const row = (name: string) => tabA.getByRole('row').filter({ hasText: name });
    await row('Published story').getByText('Changed since publication').waitFor();
    expect(await row('Never published').getByText('Changed since publication').count()).toBe(0);
    // The box follows the address (?unpublished=1), which the router sets a moment after the click.
    const only = tabA.getByRole('checkbox', { name: 'Only pages changed since publication' });
    await only.click();
    await expect.poll(() => only.isChecked()).toBe(true);
    await expect.poll(() => tabA.getByRole('link', { name: 'Never published' }).count()).toBe(0);
    await tabA.getByRole('link', { name: 'Published story' }).waitFor();
    expect(new URL(tabA.url()).searchParams.get('unpublished')).toBe('1');
    expect(draft.id).toBeGreaterThan(0);
  });

  it('is gone once an update is published', async () => {
    await tabA.goto(`/pages/${page.id}`);
    await tabA.getByText('Changed since publication', { exact: true }).waitFor();
    await tabA.getByRole('button', { name: 'Publish', exact: true }).click();
    const publication = tabA.getByRole('region', { name: 'Publication' });
    await publication.getByText('Hero › Heading: First → Second').waitFor();
    await publication.getByRole('button', { name: 'Publish update' }).click();
    await publication.getByText('Published. The provider has the current page.').waitFor();
    await tabA.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => tabA.getByText('Changed since publication', { exact: true }).count()).toBe(0);
    const status = await call('GET', `/api/pages/${page.id}/publication`);
    expect(status).toMatchObject({ published_version: 2, has_unpublished_changes: false });
  });
});
