import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, page, user } from './fake-api';
import { renderApp } from './render';

const pending: {
  id: number;
  block_id: number;
  status: string;
  reason: string | null;
  approved_block_id: number | null;
  created_at: string;
  decided_at: string | null;
} = {
  id: 3,
  block_id: 41,
  status: 'pending',
  reason: null,
  approved_block_id: null,
  created_at: '2026-01-02T10:00:00.000Z',
  decided_at: null,
};

function service(admin = true) {
  let submissions = [pending];
  return fakeApi({
    'GET /api/auth/me': () => [200, { user: user({ is_admin: admin }) }],
    'GET /api/admin/block-submissions': ({ query }) => [
      200,
      page(submissions.filter((s) => !query.get('status') || s.status === query.get('status'))),
    ],
    'POST /api/admin/block-submissions/{id}/approve': ({ params }) => {
      submissions = submissions.map((s) =>
        s.id === Number(params.id) ? { ...s, status: 'approved', approved_block_id: 90 } : s,
      );
      return [200, submissions[0]];
    },
    'POST /api/admin/block-submissions/{id}/reject': ({ params, body }) => {
      submissions = submissions.map((s) =>
        s.id === Number(params.id) ? { ...s, status: 'rejected', reason: (body as { reason: string }).reason } : s,
      );
      return [200, submissions[0]];
    },
  });
}

describe('moderation queue', () => {
  it('is for administrators only: no nav entry and a refusal for others', async () => {
    renderApp('/admin/moderation', service(false).api);
    expect(await screen.findByText('Administrators only')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Moderation' })).toBeNull();
  });

  it('approves a pending submission after asking, then it leaves the pending list', async () => {
    const fake = service();
    renderApp('/admin/moderation', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Approve submission 3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve this submission?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.some((c) => c.path.endsWith('/approve'))).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Approve submission 3' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Nothing waits for a decision.')).toBeTruthy();
    expect(fake.calls.find((c) => c.path.endsWith('/approve'))?.path).toBe('/api/admin/block-submissions/3/approve');
    expect(fake.calls.find((c) => c.method === 'GET' && c.path.includes('submissions'))?.query.get('status')).toBe(
      'pending',
    );
  });

  it('rejects only with a reason, and sends it', async () => {
    const fake = service();
    renderApp('/admin/moderation', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Reject submission 3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject this submission?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Give the author a reason.')).toBeTruthy();
    expect(fake.calls.some((c) => c.path.endsWith('/reject'))).toBe(false);

    await userEvent.type(within(dialog).getByRole('textbox', { name: /reason/i }), 'Needs docs');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.calls.find((c) => c.path.endsWith('/reject'))?.body).toEqual({ reason: 'Needs docs' });
  });

  it('keeps the dialog open with the service refusal (already decided)', async () => {
    const fake = service();
    fake.on('POST /api/admin/block-submissions/{id}/approve', () => [
      409,
      { error: 'Submission 3 is already decided.' },
    ]);
    renderApp('/admin/moderation', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Approve submission 3' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('already decided');
  });

  it('shows a failed load', async () => {
    const fake = service();
    fake.on('GET /api/admin/block-submissions', () => [500, { error: 'Internal error.' }]);
    renderApp('/admin/moderation', fake.api);
    expect((await screen.findByRole('alert')).textContent).toContain('Cannot load the submissions');
  });
});
