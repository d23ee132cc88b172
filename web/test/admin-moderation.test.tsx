import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, page, user } from './fake-api';
import { renderApp } from './render';
import { htmlShownIn } from '../src/screens/sandboxed-html';

const pending = {
  id: 3,
  block_id: 41,
  status: 'pending',
  reason: null as string | null,
  approved_block_id: null as number | null,
  created_at: '2026-01-02T10:00:00.000Z',
  decided_at: null as string | null,
  block_name: 'Ticker',
  version: { major: 1, minor: 0 },
  author: { id: 7, email: 'author@example.com' },
  changed_since_submitted: true,
  current_version: { major: 1, minor: 1 },
};

const review = (s: typeof pending) => ({
  ...s,
  block: { name: 'Ticker', description: 'A line of news.', docs: '', block_type: 'schema', kind: 'content' },
  revision: {
    id: 12,
    version: { major: 1, minor: 0 },
    template_content: '<p class="ticker">{{ headline }}</p>',
    css: '.ticker { color: navy; }',
    js: 'window.tickerSource = "submitted";',
    schema_content: [{ name: 'headline', type: 'string', required: true, label: 'Headline' }],
    changelog: null,
    created_at: '2026-01-02T09:00:00.000Z',
  },
});

function service(admin = true) {
  let submissions = [pending];
  const one = (id: string) => submissions.find((s) => s.id === Number(id))!;
  return fakeApi({
    'GET /api/auth/me': () => [200, { user: user({ is_admin: admin }) }],
    'GET /api/admin/block-submissions': ({ query }) => [
      200,
      page(submissions.filter((s) => !query.get('status') || s.status === query.get('status'))),
    ],
    'GET /api/admin/block-submissions/{id}': ({ params }) => [200, review(one(params.id!))],
    'GET /api/admin/block-submissions/{id}/preview': () => [
      200,
      '<p class="ticker">Fresh news</p>',
      { 'content-type': 'text/html' },
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

  it('names the block, its version and its author, says it changed, and offers no blind decision', async () => {
    renderApp('/admin/moderation', service().api);
    const table = await screen.findByRole('table', { name: 'Submissions' });
    expect(within(table).getByText('Ticker 1.0')).toBeTruthy();
    expect(within(table).getByText('author@example.com')).toBeTruthy();
    expect(within(table).getByText('Changed since submitted')).toBeTruthy();
    // No internal ids in the words, and decisions only after a review.
    expect(table.textContent).not.toMatch(/#3|block 41/);
    expect(within(table).queryByRole('button', { name: /Approve|Reject/ })).toBeNull();
    expect(
      within(table).getByRole('link', { name: 'Review Ticker 1.0 by author@example.com' }).getAttribute('href'),
    ).toBe('/admin/moderation/3');
  });

  it('shows what was submitted, its sandboxed preview and the change since, then approves after asking', async () => {
    const fake = service();
    const { router } = renderApp('/admin/moderation', fake.api);
    await userEvent.click(await screen.findByRole('link', { name: 'Review Ticker 1.0 by author@example.com' }));
    expect(await screen.findByRole('heading', { name: 'Review: Ticker 1.0' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/moderation/3');
    const note = screen.getByRole('status', { name: 'Changed since submitted' });
    expect(note.textContent).toContain('Changed since submitted');
    expect(note.textContent).toContain('version 1.1 now');
    expect(note.textContent).toContain('approving copies exactly that');
    expect(screen.getByLabelText('JavaScript').textContent).toBe('window.tickerSource = "submitted";');
    expect(screen.getByLabelText('Template').textContent).toBe('<p class="ticker">{{ headline }}</p>');
    expect(screen.getByLabelText('CSS').textContent).toBe('.ticker { color: navy; }');
    expect(within(screen.getByRole('table', { name: 'Fields' })).getByText('headline')).toBeTruthy();
    const frame = await screen.findByTitle('Preview of Ticker 1.0 as submitted');
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    await waitFor(() => expect(htmlShownIn(frame)).toBe('<p class="ticker">Fresh news</p>'));

    await userEvent.click(screen.getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve this submission?' });
    expect(dialog.textContent).toContain('Ticker 1.0 is copied into the global catalog as submitted');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.some((c) => c.path.endsWith('/approve'))).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Approve' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByRole('link', { name: 'Open the global copy of Ticker' })).toBeTruthy();
    expect(fake.calls.find((c) => c.path.endsWith('/approve'))?.path).toBe('/api/admin/block-submissions/3/approve');
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('rejects only with a reason, and sends it', async () => {
    const fake = service();
    renderApp('/admin/moderation/3', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject this submission?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Give the author a reason.')).toBeTruthy();
    expect(fake.calls.some((c) => c.path.endsWith('/reject'))).toBe(false);

    await userEvent.type(within(dialog).getByRole('textbox', { name: /reason/i }), 'Needs docs');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.calls.find((c) => c.path.endsWith('/reject'))?.body).toEqual({ reason: 'Needs docs' });
    expect(await screen.findByText('Reason given: Needs docs')).toBeTruthy();
  });

  it('keeps the dialog open with the service refusal (already decided)', async () => {
    const fake = service();
    fake.on('POST /api/admin/block-submissions/{id}/approve', () => [
      409,
      { error: 'Submission 3 is already decided.' },
    ]);
    renderApp('/admin/moderation/3', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('already decided');
  });

  it('says nothing of a change when the block is as submitted', async () => {
    const fake = service();
    fake.on('GET /api/admin/block-submissions/{id}', () => [
      200,
      review({ ...pending, changed_since_submitted: false, current_version: { major: 1, minor: 0 } }),
    ]);
    renderApp('/admin/moderation/3', fake.api);
    await screen.findByRole('heading', { name: 'Review: Ticker 1.0' });
    expect(screen.queryByText('Changed since submitted')).toBeNull();
  });

  it('shows a failed load', async () => {
    const fake = service();
    fake.on('GET /api/admin/block-submissions', () => [500, { error: 'Internal error.' }]);
    renderApp('/admin/moderation', fake.api);
    expect((await screen.findByRole('alert')).textContent).toContain('Cannot load the submissions');
  });
});
