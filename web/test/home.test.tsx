import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, page, user } from './fake-api';
import { renderApp } from './render';

const site = { id: 3, name: 'News' };
const pageRow = (overrides: object) => ({ id: 7, name: 'Home', is_published: false, ...overrides });

function service({ sites = [] as object[], provider = null as string | null, pages = [] as object[] } = {}) {
  return fakeApi({
    'GET /api/auth/me': () => [200, { user: user() }],
    'GET /api/sites': () => [200, page(sites)],
    'GET /api/sites/{id}/provider': () => [200, { type: provider, base_url: null, token_set: false, updated_at: null }],
    'GET /api/pages': () => [200, page(pages)],
  });
}

const steps = async () => within(await screen.findByRole('region', { name: 'First steps' }));

describe('home: the first-run path', () => {
  it('on a fresh account leads to creating a site', async () => {
    renderApp('/', service().api);
    const next = await screen.findByRole('link', { name: 'Next: create a site' });
    expect(next.getAttribute('href')).toBe('/sites');
    expect((await steps()).queryByText('(done)')).toBeNull();
  });

  it('with a site but no CMS, leads to the site’s page', async () => {
    renderApp('/', service({ sites: [site] }).api);
    const next = await screen.findByRole('link', { name: 'Next: connect its cms' });
    expect(next.getAttribute('href')).toBe('/sites/3');
    expect((await steps()).getAllByText('(done)')).toHaveLength(1);
  });

  it('with a draft page, leads to its editor to publish it', async () => {
    renderApp('/', service({ sites: [site], provider: 'fourcms', pages: [pageRow({})] }).api);
    const next = await screen.findByRole('link', { name: 'Next: publish it' });
    expect(next.getAttribute('href')).toBe('/pages/7');
  });

  it('once a page is published, says so and offers no next step', async () => {
    renderApp('/', service({ sites: [site], provider: 'fourcms', pages: [pageRow({ is_published: true })] }).api);
    expect(await screen.findByText(/Your first page is published/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: /^Next:/ })).toBeNull();
    expect((await steps()).getAllByText('(done)')).toHaveLength(4);
  });

  it('still shows the steps when the service does not answer', async () => {
    const fake = service();
    fake.on('GET /api/sites', () => [500, { error: 'Internal error.' }]);
    fake.on('GET /api/pages', () => [500, { error: 'Internal error.' }]);
    renderApp('/', fake.api);
    expect(await (await steps()).findByRole('link', { name: 'Create a site' })).toBeTruthy();
    expect(screen.queryByText('(done)')).toBeNull();
  });
});
