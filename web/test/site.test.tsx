import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, page, user, type Handler } from './fake-api';
import { renderApp } from './render';

const at = '2026-01-01T10:00:00.000Z';
const site = { id: 1, name: 'Blog', domain: null, layout_id: null, created_at: at, updated_at: at };
const folder = (id: number, name: string, parent_id: number | null = null) => ({
  id,
  site_id: 1,
  parent_id,
  name,
  created_at: at,
});
const layout = (id: number, name: string, scope: 'global' | 'user', site_id: number | null = null) => ({
  id,
  name,
  scope,
  site_id,
  tags: [],
  template: '{{ content }}',
  css: '',
  js: '',
  fork_count: 0,
  forked_from_id: null,
  created_at: at,
  updated_at: at,
});

function service(overrides: Record<string, Handler> = {}) {
  return fakeApi({
    'GET /api/auth/me': () => [200, { user: user() }],
    'GET /api/sites/{id}': () => [200, site],
    'GET /api/sites': () => [200, page([site])],
    'GET /api/layouts': () => [
      200,
      page([layout(3, 'Classic', 'global'), layout(4, 'Mine', 'user'), layout(5, 'Other site', 'user', 9)]),
    ],
    'GET /api/sites/{id}/provider': () => [
      200,
      { type: 'fourcms', base_url: 'https://cms.example.com/api', token_set: true, updated_at: at },
    ],
    'GET /api/sites/{id}/s3/status': () => [200, { configured: false, bucket: null, public_url: null }],
    'GET /api/folders': () => [200, page([folder(2, 'News'), folder(3, 'Sport', 2), folder(4, 'About')])],
    ...overrides,
  });
}

describe('site', () => {
  it('shows the site, its provider without the token, its storage and its folders nested', async () => {
    const fake = service();
    renderApp('/sites/1', fake.api);
    expect(await screen.findByRole('heading', { level: 1, name: 'Blog' })).toBeTruthy();
    expect(await screen.findByLabelText(/fourcms API address/)).toHaveProperty('value', 'https://cms.example.com/api');
    expect(screen.getByLabelText(/^Token/)).toHaveProperty('value', '');
    expect(screen.getByText(/token stored/)).toBeTruthy();
    expect(await screen.findByText('Not configured')).toBeTruthy();
    const news = (await screen.findByText('News', { selector: 'p' })).closest('li')!;
    expect(within(news).getByText('Sport')).toBeTruthy();
    expect(within(news).queryByText('About')).toBeNull();
    expect(fake.calls.find((c) => c.path === '/api/folders')!.query.get('site_id')).toBe('1');
  });

  it('offers global layouts and the user’s own, not those of another site, and saves the choice', async () => {
    const fake = service({ 'PUT /api/sites/{id}': ({ body }) => [200, { ...site, ...(body as object) }] });
    renderApp('/sites/1', fake.api);
    const select = await screen.findByLabelText(/^Layout/);
    await waitFor(() => expect(within(select).getByRole('option', { name: 'Classic (global)' })).toBeTruthy());
    expect(within(select).getByRole('option', { name: 'Mine' })).toBeTruthy();
    expect(within(select).queryByRole('option', { name: 'Other site' })).toBeNull();
    await userEvent.selectOptions(select, '4');
    const name = screen.getByRole('textbox', { name: /^Name/ });
    await userEvent.clear(name);
    await userEvent.type(name, 'Journal');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Journal' })).toBeTruthy();
    const put = fake.calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toEqual({ name: 'Journal', domain: null, layout_id: 4 });
  });

  it('puts the server’s refusal of a rename and of a layout next to their fields', async () => {
    const fake = service({
      'PUT /api/sites/{id}': () => [
        422,
        {
          error: 'The layout is not available.',
          errors: [
            { path: 'layout_id', message: 'Layout 4 belongs to another user.' },
            { path: 'name', message: 'Too long.' },
          ],
        },
      ],
    });
    renderApp('/sites/1', fake.api);
    await screen.findByRole('heading', { level: 1, name: 'Blog' });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Layout 4 belongs to another user.')).toBeTruthy();
    expect(screen.getByText('Too long.')).toBeTruthy();
    // The first field named by the service gets focus.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText(/^Layout/)));
  });

  it('refuses an empty name before asking the service', async () => {
    const fake = service();
    renderApp('/sites/1', fake.api);
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    await userEvent.clear(name);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Give the site a name.')).toBeTruthy();
    expect(fake.calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('sends the token once, clears it after, and never keeps a blank token as the stored one', async () => {
    const fake = service({
      'PUT /api/sites/{id}/provider/fourcms': ({ body }) => [
        200,
        {
          type: 'fourcms',
          base_url: (body as { base_url: string }).base_url,
          token_set: true,
          updated_at: at,
          check: { ok: true },
        },
      ],
    });
    renderApp('/sites/1', fake.api);
    const token = await screen.findByLabelText(/^Token/);
    await userEvent.click(screen.getByRole('button', { name: 'Save provider' }));
    // The service needs the token with every change: a blank field is refused here, not sent.
    expect(await screen.findByText(/Enter the token again/)).toBeTruthy();
    expect(fake.calls.some((c) => c.method === 'PUT')).toBe(false);
    await userEvent.type(token, 's3cret');
    await userEvent.click(screen.getByRole('button', { name: 'Save provider' }));
    expect(await screen.findByText('Provider saved. fourcms answered and accepted the token.')).toBeTruthy();
    expect(fake.calls.find((c) => c.method === 'PUT')!.body).toEqual({
      base_url: 'https://cms.example.com/api',
      token: 's3cret',
    });
    expect(screen.getByLabelText(/^Token/)).toHaveProperty('value', '');
  });

  it('says at once when the provider refuses the saved token, and checks again on demand', async () => {
    const fake = service({
      'PUT /api/sites/{id}/provider/fourcms': ({ body }) => [
        200,
        {
          type: 'fourcms',
          base_url: (body as { base_url: string }).base_url,
          token_set: true,
          updated_at: at,
          check: { ok: false, error: 'fourcms answered 401 Unauthorized: invalid token' },
        },
      ],
      'POST /api/sites/{id}/provider/check': () => [200, { ok: true }],
    });
    renderApp('/sites/1', fake.api);
    await userEvent.type(await screen.findByLabelText(/^Token/), 'typo');
    await userEvent.click(screen.getByRole('button', { name: 'Save provider' }));
    const refused = await screen.findByRole('alert');
    expect(refused.textContent).toContain('Saved, but the provider did not accept it');
    expect(refused.textContent).toContain('fourcms answered 401 Unauthorized: invalid token');
    await userEvent.click(screen.getByRole('button', { name: 'Check connection' }));
    expect(await screen.findByText('fourcms answered and accepted the token.')).toBeTruthy();
    expect(screen.queryByText(/Saved, but the provider/)).toBeNull();
  });

  it('shows the provider’s refusal of an address at the address field', async () => {
    const fake = service({
      'GET /api/sites/{id}/provider': () => [200, { type: null, base_url: null, token_set: false, updated_at: null }],
      'PUT /api/sites/{id}/provider/fourcms': () => [
        422,
        { error: 'Invalid request', errors: [{ path: 'base_url', message: 'The address is private.' }] },
      ],
    });
    renderApp('/sites/1', fake.api);
    expect(await screen.findByText(/No provider yet/)).toBeTruthy();
    await userEvent.type(screen.getByLabelText(/fourcms API address/), 'http://10.0.0.1/api');
    await userEvent.type(screen.getByLabelText(/^Token/), 'tok');
    await userEvent.click(screen.getByRole('button', { name: 'Save provider' }));
    expect(await screen.findByText('The address is private.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText(/fourcms API address/)));
  });

  it('shows a configured storage with its bucket and public address', async () => {
    renderApp(
      '/sites/1',
      service({
        'GET /api/sites/{id}/s3/status': () => [
          200,
          { configured: true, bucket: 'media', public_url: 'https://cdn.example.com' },
        ],
      }).api,
    );
    expect(await screen.findByText('Configured')).toBeTruthy();
    expect(screen.getByText(/“media”/)).toBeTruthy();
    expect(screen.getByText(/cdn\.example\.com/)).toBeTruthy();
  });

  it('shows a failed storage status as an alert, and the rest of the screen still works', async () => {
    renderApp(
      '/sites/1',
      service({ 'GET /api/sites/{id}/s3/status': () => [500, { error: 'The service failed.' }] }).api,
    );
    const alert = await screen.findByRole('alert', { name: /Cannot load the storage status/ });
    expect(alert.textContent).toContain('The service failed.');
    expect(await screen.findByRole('button', { name: 'Rename folder News' })).toBeTruthy();
  });

  it('creates a folder inside another and shows the service’s refusal at the name', async () => {
    let refuse = true;
    const fake = service({
      'POST /api/folders': ({ body }) =>
        refuse
          ? [409, { error: 'Conflict', errors: [{ path: 'name', message: 'A folder with this name exists here.' }] }]
          : [201, { ...folder(9, 'Cup', 3), ...(body as object) }],
    });
    renderApp('/sites/1', fake.api);
    const form = await screen.findByRole('form', { name: 'Create a folder' });
    await waitFor(() => expect(within(form).getByRole('option', { name: /Sport/ })).toBeTruthy());
    await userEvent.type(within(form).getByLabelText(/Folder name/), 'Cup');
    await userEvent.selectOptions(within(form).getByLabelText('Inside'), '3');
    await userEvent.click(within(form).getByRole('button', { name: 'Create folder' }));
    expect(await within(form).findByText('A folder with this name exists here.')).toBeTruthy();
    refuse = false;
    await userEvent.click(within(form).getByRole('button', { name: 'Create folder' }));
    await waitFor(() => expect(fake.calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect(fake.calls.filter((c) => c.method === 'POST')[1]!.body).toEqual({ site_id: 1, parent_id: 3, name: 'Cup' });
  });

  it('renames a folder in a modal, with the refusal at its field', async () => {
    let refuse = true;
    const fake = service({
      'PUT /api/folders/{id}': ({ body }) =>
        refuse
          ? [422, { error: 'Invalid', errors: [{ path: 'name', message: 'Names are at most 255 characters.' }] }]
          : [200, { ...folder(3, 'Sport', 2), ...(body as object) }],
    });
    renderApp('/sites/1', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Rename folder Sport' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename the folder' });
    const input = within(dialog).getByLabelText(/New name/);
    expect(input).toHaveProperty('value', 'Sport');
    await userEvent.clear(input);
    await userEvent.type(input, 'Sports');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await within(dialog).findByText('Names are at most 255 characters.')).toBeTruthy();
    refuse = false;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.calls.filter((c) => c.method === 'PUT').at(-1)!.path).toBe('/api/folders/3');
    expect(fake.calls.filter((c) => c.method === 'PUT').at(-1)!.body).toEqual({ name: 'Sports' });
  });

  it('deletes a folder only after confirming, and shows a failure in the modal', async () => {
    let fail = true;
    const fake = service({
      'DELETE /api/folders/{id}': () => (fail ? [500, { error: 'The service failed.' }] : [204]),
    });
    renderApp('/sites/1', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete folder News' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this folder?' });
    expect(dialog.textContent).toContain('News');
    expect(dialog.textContent).toContain('pages stay');
    expect(fake.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete folder' }));
    expect(await within(dialog).findByRole('alert')).toBeTruthy();
    fail = false;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete folder' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
      '/api/folders/2',
      '/api/folders/2',
    ]);
  });

  it('deletes the site after confirming and goes back to the list', async () => {
    const fake = service({ 'DELETE /api/sites/{id}': () => [204] });
    const { router } = renderApp('/sites/1', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete site' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this site?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete site' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sites'));
    expect(fake.calls.some((c) => c.method === 'DELETE' && c.path === '/api/sites/1')).toBe(true);
  });

  it('says so when the site is someone else’s or gone', async () => {
    renderApp(
      '/sites/7',
      service({ 'GET /api/sites/{id}': () => [403, { error: 'Site 7 belongs to another user.' }] }).api,
    );
    // Plain words, never the service's internal id.
    expect(
      await screen.findByText('There is no site at this address: it was deleted, or it is not yours.'),
    ).toBeTruthy();
    expect(screen.queryByText(/Site 7/)).toBeNull();
    expect(screen.getByRole('link', { name: '← Sites' })).toBeTruthy();
  });
});
