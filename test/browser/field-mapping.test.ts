/**
 * The block editor's field mapping on a breaking save (issue 29, point 5), in
 * Chromium against the built service: a block used on a page, a field renamed
 * and one removed in the editor; the "Fields removed" step offers "heading is
 * now title" with how many instances hold a value, refuses two fields sent to
 * one at the row the service names (422 at `migrations[1].to`), and saves the
 * migrations made of the answers. The page's instance, migrated, keeps its
 * value under the new name and loses the dropped one. axe and screenshots at
 * 1280 and 390 px.
 */
import { describe, expect, it } from 'vitest';
import { checkScreen } from './harness.js';
import { browserFixture } from './fixture.js';

const app = browserFixture({ user: 'mia' });

const FIELDS = [
  { name: 'heading', type: 'string', required: true },
  { name: 'subtitle', type: 'string' },
  { name: 'price', type: 'string' },
];

/** A screen at both widths, with no serious axe violation; focus leaves CodeMirror (its cursor blinks for ever). */
async function accessible(name: string) {
  await app.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const violations = await checkScreen(app.page, name);
  expect(violations, JSON.stringify(violations, null, 1)).toEqual([]);
}

describe('mapping the fields a save removes', () => {
  it('renames one field and drops another; the migrated instance keeps its value under the new name', async () => {
    const { page, call } = app;
    const site = await call('POST', '/api/sites', { name: 'Shop' });
    const block = await call('POST', '/api/blocks', {
      name: 'Offer',
      template: '<h2>{{ heading }}</h2><p>{{ subtitle }}</p><b>{{ price }}</b>',
      schema_content: FIELDS,
    });
    const created = await call('POST', '/api/pages', {
      name: 'Spring',
      site_id: site.id,
      blocks: [
        { block_id: block.id, placeholder_values: { heading: 'Spring sale', subtitle: 'Soon', price: '12.5' } },
        { block_id: block.id, placeholder_values: { heading: 'Late spring', price: 'twelve' } },
      ],
    });

    await page.goto(`/blocks/${block.id}/edit`);
    await page.getByRole('heading', { name: 'Edit Offer' }).waitFor();
    const row = (name: string) => page.getByRole('group', { name, exact: true });
    await row('Field 1: heading')
      .getByLabel(/^Field name/)
      .fill('title');
    await row('Field 3: price')
      .getByLabel(/^Field name/)
      .fill('cost');
    await row('Field 3: cost').getByRole('combobox', { name: 'Type', exact: true }).first().click();
    await page.getByRole('option', { name: 'number', exact: true }).click();
    await page.getByRole('button', { name: 'Remove subtitle' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();

    const dialog = page.getByRole('dialog', { name: 'Fields removed' });
    await dialog.waitFor();
    const heading = dialog.getByRole('group', { name: 'Removed field heading' });
    const subtitle = dialog.getByRole('group', { name: 'Removed field subtitle' });
    const price = dialog.getByRole('group', { name: 'Removed field price' });
    // The renamed fields are offered under their new names, with what a conversion does; the removed one waits.
    expect(await heading.textContent()).toContain('2 instances hold a value in it.');
    expect(await heading.textContent()).toContain('heading is now title.');
    expect(await price.textContent()).toContain('price is now cost: its text becomes a number');
    expect(await subtitle.textContent()).toContain('1 instance holds a value in it.');
    const save = dialog.getByRole('button', { name: 'Save as version 2.0' });
    expect(await save.isDisabled()).toBe(true);

    // Subtitle sent to title as well: the service refuses the second step, and says so at subtitle's row.
    await subtitle.getByRole('radio', { name: 'Its values go to another field' }).check();
    await subtitle.getByText('The choice for heading already writes title', { exact: false }).waitFor();
    expect(await heading.getByText(/already writes/).count()).toBe(0);
    expect(await save.isDisabled()).toBe(true);
    await accessible('field-mapping-refused');

    await subtitle.getByRole('radio', { name: 'Drop its values' }).check();
    const status = dialog.getByRole('status');
    await status
      .getByText(/With these choices, 1 of your 2 instances can move to version 2.0 with its values/)
      .waitFor();
    // "twelve" is no number: the second instance could not move yet, and the dialog says why.
    expect(await status.textContent()).toContain('1 could not yet:');
    expect(await status.getByRole('list', { name: 'Why some instances could not move' }).textContent()).toBe(
      'price: "twelve" is not a number. (1 instance)',
    );
    expect(await subtitle.getByText(/already writes/).count()).toBe(0);
    await accessible('field-mapping');
    await save.click();

    await page.getByText(/Saved as a major change/).waitFor();
    await page.getByText('Version 2.0.', { exact: true }).waitFor();
    const revision = (await call('GET', `/api/blocks/${block.id}/revisions`)).data[0];
    expect(revision.version).toEqual({ major: 2, minor: 0 });

    // The first instance, migrated: its heading is its title, its price a number, its subtitle gone.
    const first = created.blocks[0].id;
    const migrated = await call('POST', `/api/pages/${created.id}/blocks/${first}/migrate`);
    expect(migrated.to).toEqual({ major: 2, minor: 0 });
    const after = await call('GET', `/api/pages/${created.id}?with_blocks=1`);
    const instance = after.blocks.find((b: { id: number }) => b.id === first);
    expect(instance.placeholder_values).toEqual({ title: 'Spring sale', cost: 12.5 });
    // The second cannot move with a price that is no number: refused at its path, and it stays.
    await expect(call('POST', `/api/pages/${created.id}/blocks/${created.blocks[1].id}/migrate`)).rejects.toThrow(
      /400.*placeholder_values\.(price|cost)/,
    );
  });
});
