import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, page, user } from './fake-api';
import { renderApp } from './render';

const KEY = `pb_${'a'.repeat(64)}`;
const stored = {
  id: 7,
  title: 'build script',
  prefix: 'pb_1234',
  created_at: '2026-01-02T10:00:00.000Z',
  last_used_at: null,
};

function service() {
  let keys = [stored];
  const fake = fakeApi({
    'GET /api/auth/me': () => [200, { user: user() }],
    'GET /api/api-keys': () => [200, page(keys)],
    'POST /api/api-keys': ({ body }) => {
      const created = { ...stored, id: 8, title: (body as { title: string }).title, prefix: 'pb_aaaa' };
      keys = [...keys, created];
      return [201, { ...created, key: KEY }];
    },
    'DELETE /api/api-keys/{id}': ({ params }) => {
      keys = keys.filter((k) => k.id !== Number(params.id));
      return [204];
    },
  });
  return fake;
}

describe('API keys', () => {
  it('lists title, prefix, created and last used', async () => {
    renderApp('/api-keys', service().api);
    const row = (await screen.findByRole('rowheader', { name: 'build script' })).closest('tr')!;
    expect(row.textContent).toContain('pb_1234');
    expect(row.textContent).toContain('Never');
  });

  it('shows a new key once, with the warning and a copy button, and the curl line uses it', async () => {
    const fake = service();
    renderApp('/api-keys', fake.api);
    await userEvent.type(await screen.findByRole('textbox', { name: /title/i }), 'Claude');
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    const panel = await screen.findByRole('status');
    expect(panel.textContent).toContain(KEY);
    expect(panel.textContent).toContain('It cannot be shown again');
    expect(within(panel).getByRole('button', { name: 'Copy key' })).toBeTruthy();
    expect(fake.calls.find((c) => c.method === 'POST')?.body).toEqual({ title: 'Claude' });
    expect(screen.getByText(new RegExp(`Bearer ${KEY}`))).toBeTruthy();
    expect(await screen.findByRole('rowheader', { name: 'Claude' })).toBeTruthy();

    await userEvent.click(within(panel).getByRole('button', { name: 'I have stored it' }));
    expect(screen.queryByText(KEY)).toBeNull();
  });

  it('asks before deleting, and cancelling deletes nothing', async () => {
    const fake = service();
    renderApp('/api-keys', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete key build script' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this key?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.some((c) => c.method === 'DELETE')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Delete key build script' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete key' }));
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: 'build script' })).toBeNull());
    expect(fake.calls.find((c) => c.method === 'DELETE')?.path).toBe('/api/api-keys/7');
  });

  it('shows a refused title on its field', async () => {
    const fake = service();
    fake.on('POST /api/api-keys', () => [
      400,
      { error: 'Invalid body.', errors: [{ path: 'title', message: 'At most 255 characters.' }] },
    ]);
    renderApp('/api-keys', fake.api);
    const field = await screen.findByRole('textbox', { name: /title/i });
    await userEvent.type(field, 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText('At most 255 characters.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(field));
  });
});
