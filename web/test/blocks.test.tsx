import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, page, user } from './fake-api';
import { renderApp } from './render';
import { htmlShownIn } from '../src/screens/sandboxed-html';

const block = (overrides: Record<string, unknown> = {}) => ({
  id: 3,
  name: 'Hero',
  description: 'A big title with a call to action',
  docs: '# Use\n\n## When to use\n\nAt the top of a page. <img src=x onerror="alert(1)">',
  block_type: 'schema',
  kind: 'content',
  scope: 'global',
  tags: [1],
  version: { major: 2, minor: 1 },
  current_revision: {
    id: 9,
    version: { major: 2, minor: 1 },
    template_content: '<h1>{{ title }}</h1>',
    css: '',
    js: '',
    schema_content: [],
    changelog: 'Subtitle added',
    created_at: '2026-01-02T10:00:00.000Z',
  },
  is_favorite: false,
  is_deprecated: false,
  fork_count: 0,
  forked_from_id: null,
  cover_url: null,
  created_at: '2026-01-01T10:00:00.000Z',
  updated_at: '2026-01-02T10:00:00.000Z',
  ...overrides,
});

function service(example: Record<string, unknown> = { title: 'Hello' }) {
  let favorite = false;
  return fakeApi({
    'GET /api/auth/me': () => [200, { user: user() }],
    'GET /api/tags': () => [200, page([{ id: 1, name: 'Marketing', slug: 'marketing' }])],
    'GET /api/blocks': () => [
      200,
      page([block(), block({ id: 4, name: 'My columns', scope: 'user', kind: 'layout', forked_from_id: 2 })]),
    ],
    'GET /api/blocks/favorites': () => [200, page([])],
    'GET /api/blocks/{id}': () => [200, block({ is_favorite: favorite })],
    'PUT /api/blocks/{id}/favorite': () => {
      favorite = true;
      return [204];
    },
    'POST /api/blocks/{id}/fork': () => [201, block({ id: 10, name: 'Hero (fork)', scope: 'user', forked_from_id: 3 })],
    'GET /api/blocks/{id}/placeholder-schema': () => [
      200,
      {
        block_type: 'schema',
        schema: {
          type: 'object',
          properties: { title: { type: 'string', title: 'Title' }, articles: { type: 'array' } },
          required: ['title'],
        },
        example,
        binding_slots: [
          { name: 'articles', allowed_sources: ['articles.latest'], default: null, result_type: 'article_list' },
        ],
      },
    ],
    'POST /api/blocks/{id}/preview': () => [200, '<h1>Hello</h1>', { 'content-type': 'text/html' }],
    'GET /api/blocks/{id}/revisions': () => [200, page([])],
    'GET /api/blocks/{id}/adoption': () => [
      200,
      {
        block_id: 3,
        version: { major: 2, minor: 1 },
        instances: 3,
        pages: 2,
        revisions: [
          {
            version: { major: 2, minor: 1 },
            current: true,
            instances: 1,
            pages: [{ id: 4, name: 'About', instances: 1 }],
          },
          {
            version: { major: 1, minor: 0 },
            current: false,
            instances: 2,
            pages: [{ id: 2, name: 'Home', instances: 2 }],
          },
        ],
      },
    ],
  });
}

describe('block library', () => {
  it('lists blocks with their scope, kind and fork shown in words', async () => {
    renderApp('/blocks', service().api);
    const mine = (await screen.findByRole('link', { name: 'My columns' })).closest('li')!;
    expect(within(mine).getByText('Yours')).toBeTruthy();
    expect(within(mine).getByText('Layout')).toBeTruthy();
    expect(within(mine).getByText('Fork')).toBeTruthy();
    const hero = screen.getByRole('link', { name: 'Hero' }).closest('li')!;
    expect(within(hero).getByText('Global')).toBeTruthy();
    expect(hero.textContent).toContain('Tags: Marketing');
  });

  it('sends the search text and the role to the service', async () => {
    const fake = service();
    renderApp('/blocks', fake.api);
    await screen.findByRole('link', { name: 'Hero' });
    await userEvent.type(screen.getByRole('textbox', { name: /search/i }), 'hero');
    await userEvent.click(screen.getByRole('radio', { name: 'Layout' }));
    await waitFor(() => {
      const last = fake.calls.filter((c) => c.path === '/api/blocks').at(-1)!;
      expect(last.query.get('search')).toBe('hero');
      expect(last.query.get('role')).toBe('layout');
    });
  });

  it('shows favorites from their own list, with a hint when there are none', async () => {
    const fake = service();
    renderApp('/blocks?show=favorites', fake.api);
    expect(await screen.findByText(/No favorites yet/)).toBeTruthy();
    expect(fake.calls.some((c) => c.path === '/api/blocks/favorites')).toBe(true);
  });
});

describe('block page', () => {
  it('shows docs as markdown without the raw HTML, the fields, the slots, where it is used by version and a sandboxed preview', async () => {
    const { container } = renderApp('/blocks/3', service().api);
    expect(await screen.findByRole('heading', { level: 1, name: 'Hero' })).toBeTruthy();
    // Under the screen's "Documentation" (h2), the docs' own headings start at h3: one h1 on the screen.
    expect(screen.getByRole('heading', { level: 3, name: 'Use' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 4, name: 'When to use' })).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(container.querySelector('img[onerror]')).toBeNull();
    expect(screen.getByText(/Version/).textContent).toContain('2.1');
    expect(screen.getByText(/Subtitle added/)).toBeTruthy();

    const title = (await screen.findByRole('rowheader', { name: 'title' })).closest('tr')!;
    expect(title.textContent).toContain('Yes');
    const slots = screen.getByRole('heading', { name: 'Live data' }).closest('section')!;
    const slot = within(slots).getByRole('rowheader', { name: 'articles' }).closest('tr')!;
    expect(slot.textContent).toContain('articles.latest');
    expect(slot.textContent).toContain('article_list');

    const frame = await screen.findByTitle<HTMLIFrameElement>('Preview of the block’s example');
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(htmlShownIn(frame)).toBe('<h1>Hello</h1>');

    expect(await screen.findByText('3 instances on 2 pages; 2 instances behind version 2.1.')).toBeTruthy();
    const old = screen.getByRole('list', { name: 'Pages with version 1.0' });
    expect(within(old).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/pages/2');
    expect(screen.getByRole('link', { name: 'See the upgrade plan' }).getAttribute('href')).toBe('/blocks/3/upgrade');
  });

  it('sends the example to the preview', async () => {
    const fake = service();
    renderApp('/blocks/3', fake.api);
    await screen.findByTitle('Preview of the block’s example');
    expect(fake.calls.find((c) => c.path === '/api/blocks/3/preview')?.body).toEqual({
      placeholder_values: { title: 'Hello' },
    });
  });

  it('says why the preview may look empty when the example has only empty values', async () => {
    renderApp('/blocks/3', service({ title: '' }).api);
    await screen.findByTitle('Preview of the block’s example');
    expect(screen.getByText(/so this preview may look empty/)).toBeTruthy();
  });

  it('says nothing of the kind when the example shows something', async () => {
    renderApp('/blocks/3', service().api);
    await screen.findByTitle('Preview of the block’s example');
    expect(screen.queryByText(/so this preview may look empty/)).toBeNull();
  });

  it('marks a favorite, and forks a global block into a block of your own', async () => {
    const fake = service();
    const { router } = renderApp('/blocks/3', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Add to favorites' }));
    expect(await screen.findByRole('button', { name: 'Remove from favorites' })).toBeTruthy();
    expect(fake.calls.some((c) => c.method === 'PUT' && c.path === '/api/blocks/3/favorite')).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Fork' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/blocks/10'));
  });

  it('says so when the block cannot be opened', async () => {
    const fake = service();
    fake.on('GET /api/blocks/{id}', () => [403, { error: 'Block 3 belongs to another user.' }]);
    renderApp('/blocks/3', fake.api);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('There is no block at this address: it was deleted, or it is not yours.');
    expect(alert.textContent).not.toContain('Block 3');
    expect(screen.getByRole('link', { name: '← Block library' })).toBeTruthy();
  });
});
