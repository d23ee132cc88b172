import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, page, pageBody, pageInstance, user } from './fake-api';
import { renderApp } from './render';
import { htmlShownIn } from '../src/screens/sandboxed-html';

const site = {
  id: 1,
  name: 'Blog',
  domain: null,
  created_at: '2026-01-01T10:00:00.000Z',
  updated_at: '2026-01-01T10:00:00.000Z',
};
const pageRow = (overrides: Record<string, unknown> = {}) =>
  pageBody({ folder_id: 2, has_outdated_blocks: true, blocks: null, ...overrides });

function service(sites = [site]) {
  return fakeApi({
    'GET /api/auth/me': () => [200, { user: user() }],
    'GET /api/sites': () => [200, page(sites)],
    'GET /api/folders': () => [
      200,
      page([{ id: 2, site_id: 1, parent_id: null, name: 'News', created_at: site.created_at }]),
    ],
    'GET /api/page-types': () => [
      200,
      page([
        { kind: 'article', title: 'Article' },
        { kind: 'template', title: 'Template' },
      ]),
    ],
    'GET /api/pages': ({ query }) => [
      200,
      page(
        query.get('has_outdated') === '1'
          ? [pageRow()]
          : [
              pageRow(),
              pageRow({ id: 6, name: 'About', folder_id: null, has_outdated_blocks: false, is_published: true }),
            ],
      ),
    ],
    'POST /api/pages': () => [
      409,
      { error: 'This slug is taken.', errors: [{ path: 'name', message: 'A page with this name exists.' }] },
    ],
  });
}

describe('pages', () => {
  it('lists pages under their site with folder, state and the outdated badge in words', async () => {
    renderApp('/pages', service().api);
    const section = (await screen.findByRole('heading', { name: 'Blog' })).closest('section')!;
    const home = within(section).getByRole('rowheader', { name: 'Home' }).closest('tr')!;
    expect(home.textContent).toContain('News');
    expect(home.textContent).toContain('Draft');
    expect(home.textContent).toContain('Outdated blocks');
    const about = within(section).getByRole('rowheader', { name: 'About' }).closest('tr')!;
    expect(about.textContent).toContain('Published');
    expect(about.textContent).not.toContain('Outdated');
  });

  it('filters to pages with outdated blocks through the service', async () => {
    const fake = service();
    renderApp('/pages', fake.api);
    await screen.findByRole('rowheader', { name: 'About' });
    await userEvent.click(screen.getByRole('checkbox', { name: /only pages with outdated blocks/i }));
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: 'About' })).toBeNull());
    expect(fake.calls.some((c) => c.path === '/api/pages' && c.query.get('has_outdated') === '1')).toBe(true);
  });

  it('shows a refusal next to the field it names', async () => {
    const fake = service();
    renderApp('/pages', fake.api);
    await userEvent.type(await screen.findByRole('textbox', { name: /name/i }), 'Home');
    await userEvent.click(screen.getByRole('button', { name: 'Create page' }));
    const name = screen.getByRole('textbox', { name: /name/i });
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('A page with this name exists.')).toBeTruthy();
    expect(fake.calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Home', site_id: 1, kind: 'article' });
  });

  it('sends a newcomer without a site to create one first', async () => {
    renderApp('/pages', service([]).api);
    expect(await screen.findByText('First, a site')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create a site' }).getAttribute('href')).toBe('/sites');
  });

  it('opens a page with its blocks in order and a sandboxed preview at three widths', async () => {
    const fake = service();
    fake.on('GET /api/pages/{id}', () => [
      200,
      pageRow({
        blocks: [pageInstance({ update_status: 'outdated_minor' })],
      }),
    ]);
    fake.on('POST /api/pages/{id}/preview', () => [200, '<h1>Hero</h1>', { 'content-type': 'text/html' }]);
    renderApp('/pages/5', fake.api);
    const card = (await screen.findByRole('link', { name: 'Hero' })).closest('li')!;
    expect(card.textContent).toContain('Minor update available');
    expect(fake.calls.find((c) => c.path === '/api/pages/5')?.query.get('with_blocks')).toBe('1');
    const frame = await screen.findByTitle<HTMLIFrameElement>('Page preview');
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(htmlShownIn(frame)).toBe('<h1>Hero</h1>');
    expect(frame.style.width).toBe('1280px');
    await userEvent.click(screen.getByRole('radio', { name: 'Mobile' }));
    expect(frame.style.width).toBe('390px');
  });
});
