import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, user } from './fake-api';
import { renderApp } from './render';

function service() {
  return fakeApi({
    'GET /api/auth/me': () => [200, { user: user({ is_admin: true }) }],
    'PUT /api/admin/users/{id}': ({ params, body }) => [
      200,
      { user: user({ id: Number(params.id), email: 'bob@example.com', ...(body as object) }) },
    ],
  });
}

describe('users (administrators)', () => {
  it('the nav entry is there for administrators', async () => {
    renderApp('/admin/users', service().api);
    expect(await screen.findByRole('link', { name: 'Users' })).toBeTruthy();
  });

  it('blocks an account only after the confirmation, and shows its new state', async () => {
    const fake = service();
    renderApp('/admin/users', fake.api);
    await userEvent.type(await screen.findByRole('textbox', { name: /user id/i }), '5');
    await userEvent.click(screen.getByRole('button', { name: 'Block' }));
    const dialog = await screen.findByRole('dialog', { name: 'Block: account 5?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.some((c) => c.method === 'PUT')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Block' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Block' }));
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain('bob@example.com');
    expect(status.textContent).toContain('blocked');
    const put = fake.calls.find((c) => c.method === 'PUT')!;
    expect(put.path).toBe('/api/admin/users/5');
    expect(put.body).toEqual({ is_blocked: true });
  });

  it('makes an account administrator', async () => {
    const fake = service();
    renderApp('/admin/users', fake.api);
    await userEvent.type(await screen.findByRole('textbox', { name: /user id/i }), '5');
    await userEvent.click(screen.getByRole('button', { name: 'Make administrator' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Make administrator' }),
    );
    expect((await screen.findByRole('status')).textContent).toContain('administrator');
    expect(fake.calls.find((c) => c.method === 'PUT')?.body).toEqual({ is_admin: true });
  });

  it('asks for an id before anything, and shows an unknown one in the dialog', async () => {
    const fake = service();
    fake.on('PUT /api/admin/users/{id}', () => [404, { error: 'User 99 not found.' }]);
    renderApp('/admin/users', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Unblock' }));
    expect(await screen.findByText(/Enter the id of an account/)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();

    await userEvent.type(screen.getByRole('textbox', { name: /user id/i }), '99');
    await userEvent.click(screen.getByRole('button', { name: 'Unblock' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unblock' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('User 99 not found.');
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
  });
});
