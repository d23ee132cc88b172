/**
 * A lost session costs nothing typed (issue 27, point 4): signed out on the
 * service while a block's values are being edited, the save opens a sign-in
 * dialog over the editor, the typed value stays, and once signed in again the
 * save goes through: the value is stored.
 */
import { describe, expect, it } from 'vitest';
import { browserFixture } from './fixture.js';

const app = browserFixture({ user: 'lost' });

describe('a lost session', () => {
  it('asks to sign in again, keeps the edit and saves it', async () => {
    const block = await app.call('POST', '/api/blocks', {
      name: 'Notice',
      template: '<p>{{ words }}</p>',
      schema_content: [{ name: 'words', label: 'Words', type: 'string', required: true }],
    });
    const site = await app.call('POST', '/api/sites', { name: 'Harbour' });
    const created = await app.call('POST', '/api/pages', {
      name: 'Opening hours',
      site_id: site.id,
      blocks: [{ block_id: block.id, placeholder_values: { words: 'Open at nine' } }],
    });
    const { page } = app;
    await page.goto(`/pages/${created.id}`);
    await page.getByRole('button', { name: 'Edit Notice' }).click();
    const panel = page.getByRole('region', { name: 'Edit “Notice”' });
    const words = panel.getByRole('textbox', { name: /^Words/ });
    await words.fill('Open at ten');
    // The previews of the typed value are done: the next request to the service is the save.
    await panel.getByText('Unsaved changes', { exact: true }).waitFor();
    await page.waitForLoadState('networkidle');

    // Signed out on the service (as another tab's "Sign out" would): the cookie is no longer a session.
    await app.call('POST', '/api/auth/logout');
    let saves = 0;
    page.on('response', (response) => {
      if (response.request().method() === 'PUT' && /\/api\/pages\/\d+\/blocks\/\d+$/.test(response.url())) saves++;
    });
    await panel.getByRole('button', { name: 'Save changes' }).click();

    const dialog = page.getByRole('dialog', { name: 'Sign in to go on' });
    await dialog.waitFor();
    // The editor is still there behind it, with the typed value.
    expect(await words.inputValue()).toBe('Open at ten');
    expect(await dialog.getByLabel('Email').inputValue()).toBe(app.user.email);
    await dialog.getByLabel(/^Password/).fill(app.user.password);
    await dialog.getByRole('button', { name: 'Sign in' }).click();

    await panel.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(saves).toBe(2); // the one refused with 401, and the same one again
    const stored = await app.call('GET', `/api/pages/${created.id}?with_blocks=1`);
    expect(stored.blocks[0].placeholder_values).toEqual({ words: 'Open at ten' });
    expect(await page.getByText(/POST \/api|Sign-in required/).count()).toBe(0);
  });
});
