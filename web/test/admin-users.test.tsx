import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, user } from './fake-api';
import { renderApp } from './render';

const admin = user({ id: 1, email: 'root@example.com', is_admin: true });
const bob = user({ id: 5, email: 'bob@example.com' });
const carol = user({ id: 6, email: 'carol@example.com', is_blocked: true });
const system = { ...user({ id: 2, email: 'starter-blocks@pageblocks.invalid', is_blocked: true }), is_system: true };

function service(accounts: Array<ReturnType<typeof user> & { is_system?: boolean }> = [admin, bob, carol]) {
  const fake = fakeApi({
    'GET /api/auth/me': () => [200, { user: admin }],
    'GET /api/admin/users': ({ query }) => {
      const email = query.get('email') ?? '';
      const limit = Number(query.get('limit'));
      const offset = Number(query.get('offset'));
      const found = accounts.filter((u) => u.email.includes(email));
      return [200, { data: found.slice(offset, offset + limit), total: found.length, limit, offset }];
    },
    'PUT /api/admin/users/{id}': ({ params, body }) => {
      const index = accounts.findIndex((u) => u.id === Number(params.id));
      if (index < 0) return [404, { error: `User ${params.id} not found.` }];
      accounts[index] = { ...accounts[index]!, ...(body as object) };
      return [200, { user: accounts[index] }];
    },
  });
  return fake;
}

const row = (email: string) => screen.getByRole('rowheader', { name: email }).closest('tr')!;

describe('users (administrators)', () => {
  it('lists the accounts with their state; the administrator cannot lock themselves out', async () => {
    renderApp('/admin/users', service().api);
    await screen.findByRole('rowheader', { name: 'bob@example.com' });
    expect(within(row('carol@example.com')).getByText('Blocked')).toBeTruthy();
    expect(within(row('carol@example.com')).getByRole('button', { name: 'Unblock: carol@example.com' })).toBeTruthy();
    expect(within(row('root@example.com')).queryByRole('button')).toBeNull();
    expect(within(row('root@example.com')).getByText('Your account')).toBeTruthy();
  });

  it('offers no change of the system account that owns the starter blocks', async () => {
    renderApp('/admin/users', service([admin, system, bob]).api);
    await screen.findByRole('rowheader', { name: 'starter-blocks@pageblocks.invalid' });
    const systemRow = row('starter-blocks@pageblocks.invalid');
    expect(within(systemRow).queryByRole('button')).toBeNull();
    expect(within(systemRow).getByText(/System account: it owns the starter blocks/)).toBeTruthy();
    expect(within(row('bob@example.com')).getByRole('button', { name: 'Block: bob@example.com' })).toBeTruthy();
  });

  it('finds accounts by email', async () => {
    const fake = service();
    renderApp('/admin/users', fake.api);
    await screen.findByRole('rowheader', { name: 'bob@example.com' });
    await userEvent.type(screen.getByRole('searchbox', { name: /Search by email/ }), 'carol');
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: 'bob@example.com' })).toBeNull());
    expect(screen.getByRole('rowheader', { name: 'carol@example.com' })).toBeTruthy();
    expect(fake.calls.some((c) => c.path === '/api/admin/users' && c.query.get('email') === 'carol')).toBe(true);

    await userEvent.clear(screen.getByRole('searchbox', { name: /Search by email/ }));
    await userEvent.type(screen.getByRole('searchbox', { name: /Search by email/ }), 'nobody');
    expect(await screen.findByText('No account’s email contains “nobody”.')).toBeTruthy();
  });

  it('pages through many accounts', async () => {
    const many = Array.from({ length: 25 }, (_, i) => user({ id: 10 + i, email: `user${i}@example.com` }));
    const fake = service([admin, ...many]);
    renderApp('/admin/users', fake.api);
    await screen.findByRole('rowheader', { name: 'user0@example.com' });
    expect(screen.queryByRole('rowheader', { name: 'user24@example.com' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByRole('rowheader', { name: 'user24@example.com' })).toBeTruthy();
    expect(fake.calls.at(-1)?.query.get('offset')).toBe('20');
  });

  it('blocks an account only after the confirmation, and the list shows its new state', async () => {
    const fake = service();
    renderApp('/admin/users', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Block: bob@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Block: bob@example.com?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.some((c) => c.method === 'PUT')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Block: bob@example.com' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Block' }));
    expect((await screen.findByRole('status')).textContent).toContain('bob@example.com');
    const put = fake.calls.find((c) => c.method === 'PUT')!;
    expect(put.path).toBe('/api/admin/users/5');
    expect(put.body).toEqual({ is_blocked: true });
    await waitFor(() => expect(within(row('bob@example.com')).getByText('Blocked')).toBeTruthy());
    expect(within(row('bob@example.com')).getByRole('button', { name: 'Unblock: bob@example.com' })).toBeTruthy();
  });

  it('makes an account administrator', async () => {
    const fake = service();
    renderApp('/admin/users', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Make administrator: bob@example.com' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Make administrator' }),
    );
    expect((await screen.findByRole('status')).textContent).toContain('Administrator');
    expect(fake.calls.find((c) => c.method === 'PUT')?.body).toEqual({ is_admin: true });
  });

  it('shows a refusal in the dialog and changes nothing', async () => {
    const fake = service();
    fake.on('PUT /api/admin/users/{id}', () => [404, { error: 'User 6 not found.' }]);
    renderApp('/admin/users', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Unblock: carol@example.com' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unblock' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('User 6 not found.');
    expect(screen.queryByRole('status')).toBeNull();
    expect(within(row('carol@example.com')).getByText('Blocked')).toBeTruthy();
  });
});
