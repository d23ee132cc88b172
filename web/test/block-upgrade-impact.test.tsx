/**
 * The block editor shows a save's upgrade_impact before saving (issue 29,
 * point 3): its dry run names the instances that would not take the new
 * version, by field and constraint, and nothing is saved until confirmed.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EditorView } from '@uiw/react-codemirror';
import { describe, expect, it } from 'vitest';
import { fakeApi, page, user } from './fake-api';
import { renderApp } from './render';

const fields = [{ name: 'title', type: 'string', required: true, max_length: 60 }];
const block = (version = { major: 1, minor: 0 }) => ({
  id: 7,
  name: 'Card',
  description: '',
  docs: '',
  block_type: 'schema',
  kind: 'content',
  scope: 'user',
  tags: [],
  version,
  current_revision: {
    id: 20,
    version,
    template_content: '<h2>{{ title }}</h2>',
    css: '',
    js: '',
    schema_content: fields,
    changelog: null,
    created_at: '2026-01-02T10:00:00.000Z',
  },
  is_favorite: false,
  is_deprecated: false,
  fork_count: 0,
  forked_from_id: null,
  cover_url: null,
  created_at: '2026-01-01T10:00:00.000Z',
  updated_at: '2026-01-02T10:00:00.000Z',
});

const impact = (wouldNotValidate: number) => ({
  to: { major: 1, minor: 1 },
  instances: 5,
  behind: 5,
  behind_major: 0,
  would_not_validate: wouldNotValidate,
  reasons:
    wouldNotValidate === 0
      ? []
      : [
          {
            field: 'title',
            constraint: 'max_length',
            from: 60,
            to: 10,
            code: 'too_long',
            instances: wouldNotValidate,
            message: `title: max_length 60 → 10: ${wouldNotValidate} instances hold longer text`,
          },
        ],
});

function service(wouldNotValidate: number) {
  const fake = fakeApi({
    'GET /api/auth/me': () => [200, { user: user() }],
    'GET /api/tags': () => [200, page([])],
    'GET /api/data-sources': () => [200, page([])],
    'GET /api/data-result-types': () => [200, page([])],
    'GET /api/blocks/{id}': () => [200, block()],
    'GET /api/blocks/{id}/usages': () => [200, { ...page([]), outdated_total: 0 }],
    'GET /api/blocks/{id}/revisions': () => [200, page([])],
    'GET /api/block-submissions': () => [200, page([])],
    'GET /api/blocks/{id}/placeholder-schema': () => [
      200,
      { block_type: 'schema', schema: { type: 'object', properties: {} }, example: {}, binding_slots: [] },
    ],
    'POST /api/blocks/{id}/preview': () => [200, '<h2>Hi</h2>', { 'content-type': 'text/html' }],
  });
  fake.on('PUT /api/blocks/{id}', () => [
    200,
    {
      block: block({ major: 1, minor: 1 }),
      version_bump: 'minor',
      removed_fields: [],
      upgrade_impact: impact(wouldNotValidate),
    },
  ]);
  return fake;
}

const setCode = (label: string, text: string) => {
  const view = EditorView.findFromDOM(screen.getByRole('textbox', { name: label }))!;
  act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }));
};
const puts = (fake: ReturnType<typeof service>) =>
  fake.calls.filter((c) => c.method === 'PUT').map((c) => c.query.get('dry_run'));

describe('the impact of a block save on the pages', { timeout: 60_000 }, () => {
  it('says which instances would not take the new version, and saves only when confirmed', async () => {
    const fake = service(4);
    const { router } = renderApp('/blocks/7/edit', fake.api);
    await screen.findByRole('textbox', { name: 'CSS' });
    setCode('CSS', 'h2 { color: blue; }');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    const dialog = await screen.findByRole('dialog', { name: 'Some pages could not take this version' });
    expect(dialog.textContent).toContain('5 instances on your pages are behind version 1.1.');
    expect(dialog.textContent).toContain('4 instances would not take it without new values');
    const reasons = within(dialog).getByRole('list', { name: 'Why instances would not take the new version' });
    expect(reasons.textContent).toBe('title: max_length 60 → 10: 4 instances hold longer text');
    expect(puts(fake)).toEqual(['1']);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Save anyway' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/blocks/7'));
    expect(puts(fake)).toEqual(['1', null]);
  });

  it('saves at once when every instance can take the new version', async () => {
    const fake = service(0);
    const { router } = renderApp('/blocks/7/edit', fake.api);
    await screen.findByRole('textbox', { name: 'CSS' });
    setCode('CSS', 'h2 { color: blue; }');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/blocks/7'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(puts(fake)).toEqual(['1', null]);
  });
});
