import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, page, user } from './fake-api';
import { renderApp } from './render';

const block = (id: number, name: string, scope: 'global' | 'user') => ({
  id,
  name,
  description: '',
  docs: '',
  block_type: 'schema',
  kind: 'content',
  scope,
  tags: [],
  version: { major: 1, minor: 0 },
  is_favorite: false,
  is_deprecated: false,
  fork_count: 0,
  forked_from_id: null,
  cover_url: null,
  created_at: '2026-01-01T10:00:00.000Z',
  updated_at: '2026-01-01T10:00:00.000Z',
});

function service() {
  let blocks = [block(1, 'Hero', 'global'), block(2, 'My card', 'user')];
  return fakeApi({
    'GET /api/auth/me': () => [200, { user: user({ is_admin: true }) }],
    'GET /api/blocks': () => [200, page(blocks.filter((b) => !b.is_deprecated))],
    'PUT /api/admin/blocks/{id}/deprecation': ({ params, body }) => {
      const { is_deprecated } = body as { is_deprecated: boolean };
      blocks = blocks.map((b) => (b.id === Number(params.id) ? { ...b, is_deprecated } : b));
      return [200, blocks.find((b) => b.id === Number(params.id))];
    },
  });
}

describe('deprecation (administrators)', () => {
  it('lists global blocks only, deprecates after the confirmation, and the block leaves the list', async () => {
    const fake = service();
    renderApp('/admin/deprecation', fake.api);
    expect(await screen.findByRole('rowheader', { name: 'Hero' })).toBeTruthy();
    expect(screen.queryByRole('rowheader', { name: 'My card' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Deprecate Hero' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deprecate this block?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.some((c) => c.method === 'PUT')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Deprecate Hero' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Deprecate' }));
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: 'Hero' })).toBeNull());
    const put = fake.calls.find((c) => c.method === 'PUT')!;
    expect(put.path).toBe('/api/admin/blocks/1/deprecation');
    expect(put.body).toEqual({ is_deprecated: true });
  });

  it('brings a deprecated block back by its id', async () => {
    const fake = service();
    renderApp('/admin/deprecation', fake.api);
    await userEvent.type(await screen.findByRole('textbox', { name: /block id/i }), '1');
    await userEvent.click(screen.getByRole('button', { name: 'Bring back' }));
    expect((await screen.findByRole('status')).textContent).toContain('“Hero” is back');
    expect(fake.calls.find((c) => c.method === 'PUT')?.body).toEqual({ is_deprecated: false });
  });

  it('shows the refusal for a private block and keeps the dialog open', async () => {
    const fake = service();
    fake.on('PUT /api/admin/blocks/{id}/deprecation', () => [
      422,
      { error: 'Only global blocks can be deprecated.', errors: [{ path: 'id', message: 'private block' }] },
    ]);
    renderApp('/admin/deprecation', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Deprecate Hero' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deprecate' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('Only global blocks');
    expect(screen.getByRole('rowheader', { name: 'Hero' })).toBeTruthy();
  });

  it('asks for an id before bringing back', async () => {
    const fake = service();
    renderApp('/admin/deprecation', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Bring back' }));
    expect(await screen.findByText('Enter the id of a global block.')).toBeTruthy();
    expect(fake.calls.some((c) => c.method === 'PUT')).toBe(false);
  });
});
