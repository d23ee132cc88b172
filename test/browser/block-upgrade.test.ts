/**
 * Issue 29, point 8 (with point 6): a block's page shows how many instances
 * stand on each revision and on which pages; from there the upgrade plan,
 * with its summary in words, each instance before and after side by side,
 * values fixed where they stand (one value for a new required field, "cut to
 * N characters") until the blocked instances are ready; upgrade everywhere,
 * confirmed with its pages; and revert, a page changed since named, then
 * "Revert anyway". Screens at 1280 and 390 px, axe clean.
 */
import { describe, expect, it } from 'vitest';
import { browserFixture } from './fixture.js';
import { axeViolations, checkScreen, seriousViolations, sidewaysScrollers } from './harness.js';

const app = browserFixture({ user: 'upgrade' });
const LONG = 'A title well over ten';

let blockId = 0;
const pages: Record<string, any> = {};

async function setUp() {
  const { call } = app;
  const site = await call('POST', '/api/sites', { name: 'Upgrades' });
  const title = { name: 'title', label: 'Title', type: 'string', required: true, max_length: 60 };
  const block = await call('POST', '/api/blocks', {
    name: 'Card',
    template: '<h2>{{ title }}</h2>',
    schema_content: [title],
  });
  blockId = block.id;
  const on = (t: string) => ({ block_id: block.id, placeholder_values: { title: t } });
  pages.alpha = await call('POST', '/api/pages', { name: 'Alpha', site_id: site.id, blocks: [on(LONG)] });
  pages.beta = await call('POST', '/api/pages', { name: 'Beta', site_id: site.id, blocks: [on('Short'), on('Tiny')] });
  // 1.1: the title at most 10 characters, and a new required field without a default: every instance blocked.
  const next = await call('PUT', `/api/blocks/${block.id}`, {
    template: '<h3>{{ title }}</h3><a href="#">{{ cta_label }}</a>',
    schema_content: [
      { ...title, max_length: 10 },
      { name: 'cta_label', label: 'Call to action', type: 'string', required: true },
    ],
  });
  expect(next.version_bump).toBe('minor');
  pages.gamma = await call('POST', '/api/pages', {
    name: 'Gamma',
    site_id: site.id,
    blocks: [{ block_id: block.id, placeholder_values: { title: 'New', cta_label: 'Go' } }],
  });
}

const stored = async (id: number) =>
  (await app.call('GET', `/api/pages/${id}?with_blocks=1`)).blocks.map(
    (b: any) =>
      `${b.placeholder_values.title}|${b.placeholder_values.cta_label ?? ''}|${b.version.major}.${b.version.minor}`,
  );
const frame = (title: string) => app.page.frameLocator(`iframe[title="${title}"]`).frameLocator('iframe');

describe('adoption, the upgrade plan, apply and revert', () => {
  it('the block’s page counts instances on each revision, with their pages', { timeout: 60_000 }, async () => {
    await setUp();
    const { page } = app;
    await page.goto(`/blocks/${blockId}`);
    const versions = page.getByRole('list', { name: 'Instances by version' });
    await versions.waitFor();
    expect(await page.getByText('4 instances on 3 pages; 3 instances behind version 1.1.').count()).toBe(1);
    expect(await versions.getByRole('listitem', { name: /^Version/ }).allTextContents()).toEqual([
      expect.stringContaining('Version 1.1 (current): 1 instance on 1 page'),
      expect.stringContaining('Version 1.0: 3 instances on 2 pages'),
    ]);
    const old = page.getByRole('list', { name: 'Pages with version 1.0' });
    expect(await old.getByRole('listitem').allTextContents()).toEqual(['Alpha (1 instance)', 'Beta (2 instances)']);
    expect(await old.getByRole('link', { name: 'Beta' }).getAttribute('href')).toBe(`/pages/${pages.beta.id}`);
    expect(await checkScreen(page, 'block-adoption')).toEqual([]);
  });

  it(
    'the plan: summary in words, each instance before and after, blocked ones fixed where they stand',
    { timeout: 90_000 },
    async () => {
      const { page } = app;
      // Back at the desktop width from the screenshots: the navigation slides back in first.
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      // Scrolled to first, and clicked once the page is still: a click that scrolls the page itself missed the link.
      const link = page.getByRole('link', { name: 'See the upgrade plan' });
      await link.scrollIntoViewIfNeeded();
      let at = -1;
      await expect
        .poll(async () => {
          const y = (await link.boundingBox())?.y ?? -2;
          const still = y === at;
          at = y;
          return still;
        })
        .toBe(true);
      await link.click();
      await page.waitForURL(`**/blocks/${blockId}/upgrade`);
      const summary = page.getByRole('list', { name: 'What the upgrade does' });
      await summary.waitFor();
      expect(
        await page.getByRole('list', { name: 'Why instances are blocked' }).getByRole('listitem').allTextContents(),
      ).toEqual([
        'Call to action has no value, and version 1.1 requires one: 3 instances.',
        'Title holds longer text than version 1.1 allows: 1 instance.',
      ]);
      const alpha = page.getByRole('article', { name: 'Alpha, block 1' });
      await alpha.getByText('Blocked', { exact: true }).waitFor();
      await frame('Before: Alpha, block 1').getByRole('heading', { level: 2, name: LONG }).waitFor();
      await frame('After: Alpha, block 1').getByRole('heading', { level: 3, name: LONG }).waitFor();
      expect(await alpha.getByRole('list', { name: 'Changes to Alpha, block 1' }).textContent()).toContain(
        'Adds Call to action: no value.',
      );

      // One value for every instance's new required field: a value migration, then the plan read again.
      const value = page.getByRole('form', { name: 'A value for Call to action' });
      await value.getByRole('textbox', { name: 'Call to action for every instance' }).fill('Read more');
      await value.getByRole('button', { name: 'Use this value' }).click();
      await page.getByRole('status').getByText('Every instance without Call to action gets “Read more”').waitFor();
      const beta = page.getByRole('article', { name: 'Beta, block 2' });
      await beta.getByText('Ready', { exact: true }).waitFor();
      await frame('After: Beta, block 2').getByRole('link', { name: 'Read more' }).waitFor();
      expect(await alpha.getByText('Blocked', { exact: true }).count()).toBe(1);

      // Cut the too long title to 10 characters: the last blocked instance is ready.
      const cut = page.getByRole('form', { name: 'Cut Title' });
      expect(await cut.getByRole('textbox', { name: 'Cut to this many characters' }).inputValue()).toBe('10');
      await cut.getByRole('button', { name: 'Cut every instance' }).click();
      await alpha.getByText('Ready', { exact: true }).waitFor();
      await frame('After: Alpha, block 1').getByRole('heading', { level: 3, name: 'A title we' }).waitFor();
      expect(
        await alpha.getByRole('list', { name: 'Changes to Alpha, block 1' }).getByRole('listitem').allTextContents(),
      ).toEqual(['Adds Call to action: “Read more”.', `Title: “${LONG}” becomes “A title we”.`]);
      expect(await summary.textContent()).toContain('3 instances ready through a value migration');
      expect(await summary.textContent()).toContain('None blocked.');
      // Nothing moved yet.
      expect(await stored(pages.alpha.id)).toEqual([`${LONG}||1.0`]);
      expect(await sidewaysScrollers(page)).toEqual([]);
      // Every impact, not only the serious ones, on the plan with its entries and frames.
      expect(await axeViolations(page)).toEqual([]);
      expect(await checkScreen(page, 'block-upgrade-plan')).toEqual([]);
    },
  );

  it(
    'upgrades everywhere after a confirmation naming the pages, then reverts, a changed page named first',
    { timeout: 90_000 },
    async () => {
      const { page, call } = app;
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      await page.getByRole('button', { name: 'Upgrade everywhere…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Upgrade to version 1.1?' });
      const listed = dialog.getByRole('list', { name: 'Pages the upgrade changes' });
      await listed.waitFor();
      expect(await listed.getByRole('listitem').allTextContents()).toEqual(['Alpha: 1 instance', 'Beta: 2 instances']);
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Upgrade 3 instances' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const done = page.getByRole('status').filter({ hasText: 'Upgraded to version 1.1' });
      await done.waitFor();
      expect(await done.getByRole('list', { name: 'Pages the upgrade changed' }).textContent()).toContain(
        'Beta: 2 instances',
      );
      expect(await stored(pages.alpha.id)).toEqual(['A title we|Read more|1.1']);
      expect(await stored(pages.beta.id)).toEqual(['Short|Read more|1.1', 'Tiny|Read more|1.1']);
      await page.getByRole('list', { name: 'Upgrades of this block' }).getByText('To version 1.1').waitFor();
      expect(await checkScreen(page, 'block-upgrade-applied')).toEqual([]);

      // Beta changed after the upgrade: the revert names it, and reverts only when told "anyway".
      const beta = await call('GET', `/api/pages/${pages.beta.id}?with_blocks=1`);
      await call('PUT', `/api/pages/${pages.beta.id}/blocks/${beta.blocks[0].id}`, {
        placeholder_values: { title: 'Edited', cta_label: 'Read more' },
      });
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      await done.getByRole('button', { name: 'Revert…' }).click();
      const confirm = page.getByRole('dialog', { name: 'Revert this upgrade?' });
      await confirm.getByRole('list', { name: 'Pages the revert changes' }).waitFor();
      expect(
        await confirm.getByRole('list', { name: 'Pages the revert changes' }).getByRole('listitem').allTextContents(),
      ).toEqual([`Alpha: back to version ${pages.alpha.version}`, `Beta: back to version ${pages.beta.version}`]);
      await confirm.getByRole('button', { name: 'Revert', exact: true }).click();
      const changed = confirm.getByRole('alert').filter({ hasText: 'Changed since the upgrade' });
      await changed.getByText('Beta was changed after the upgrade.', { exact: false }).waitFor();
      expect(await changed.textContent()).not.toContain('Alpha');
      expect(await stored(pages.alpha.id)).toEqual(['A title we|Read more|1.1']);
      expect(await seriousViolations(page)).toEqual([]);
      await confirm.getByRole('button', { name: 'Revert anyway' }).click();
      await confirm.waitFor({ state: 'hidden' });
      await page.getByRole('status').getByText('The upgrade was reverted').waitFor();
      expect(await stored(pages.alpha.id)).toEqual([`${LONG}||1.0`]);
      expect(await stored(pages.beta.id)).toEqual(['Short||1.0', 'Tiny||1.0']);
      await page
        .getByRole('list', { name: 'Upgrades of this block' })
        .getByText('reverted', { exact: false })
        .waitFor();
      // The plan is back: three instances behind, ready through the fixes kept with 1.1.
      expect(await page.getByRole('list', { name: 'What the upgrade does' }).textContent()).toContain(
        '3 instances ready through a value migration',
      );
      expect(await checkScreen(page, 'block-upgrade-reverted')).toEqual([]);
    },
  );
});
