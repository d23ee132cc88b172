import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../src/format';
import { parseRubricIds } from '../src/screens/page-editor/publish-panel';
import { fakeApi, page, pageBody, user } from './fake-api';
import { renderApp } from './render';
import { noProvider, unpublished } from './publication';

const at = '2026-01-01T10:00:00.000Z';
const failedAt = '2026-01-03T09:30:00.000Z';

/** One page (id 5) on site 1 with a fourcms provider; the publication and metadata change as the screen asks. */
function service(kind = 'article') {
  let meta = {
    name: 'Launch',
    site_id: 1 as number | null,
    folder_id: null as number | null,
    slug: null as string | null,
    meta_title: null as string | null,
    meta_description: null,
    meta_keywords: null,
    meta_robots: null,
  };
  let status: Record<string, unknown> = unpublished;
  const current = () => pageBody({ kind, ...meta, is_published: status.is_published });
  return fakeApi({
    'GET /api/auth/me': () => [200, { user: user() }],
    'GET /api/pages/{id}': () => [200, current()],
    'GET /api/pages/{id}/publication': () => [200, status],
    'GET /api/sites/{id}/provider': () => [
      200,
      { type: 'fourcms', base_url: 'https://cms.example.com', token_set: true, updated_at: at },
    ],
    'POST /api/pages/{id}/publish': ({ body }) => {
      const ids = (body as { rubric_ids?: number[] }).rubric_ids;
      if (ids?.includes(999)) {
        // The service keeps the provider's message and the time in the status.
        status = { ...status, last_error: 'Provider error: rubric 999 does not exist', last_error_at: failedAt };
        return [502, { error: 'Provider error: rubric 999 does not exist' }];
      }
      if (ids?.includes(0))
        return [400, { error: 'Validation failed', errors: [{ path: 'rubric_ids[1]', message: 'Must be >= 1.' }] }];
      status = {
        is_published: true,
        external_id: '41',
        external_slug: 'launch',
        published_at: at,
        updated_at: at,
        last_error: null,
        last_error_at: null,
      };
      return [200, status];
    },
    'POST /api/pages/{id}/publish-update': () => {
      status = { ...status, updated_at: '2026-01-02T10:00:00.000Z' };
      return [200, status];
    },
    'GET /api/sites': () => [200, page([{ id: 1, name: 'Blog', domain: null, created_at: at, updated_at: at }])],
    'GET /api/folders': () => [200, page([{ id: 2, site_id: 1, parent_id: null, name: 'News', created_at: at }])],
    'PUT /api/pages/{id}': ({ body }) => {
      const next = body as typeof meta;
      if (next.slug === 'taken')
        return [409, { error: 'The slug is taken on this site.', errors: [{ path: 'slug', message: 'Taken.' }] }];
      meta = { ...meta, ...next };
      return [200, current()];
    },
  });
}

/** The publication panel, in the dialog the header's Publish button opens. */
async function publication() {
  const open = screen.queryByRole('region', { name: 'Publication' });
  if (open) return open;
  await userEvent.click(await screen.findByRole('button', { name: 'Publish' }));
  return screen.findByRole('region', { name: 'Publication' });
}

describe('rubric ids', () => {
  it('reads whole numbers separated by commas or spaces, and refuses anything else', () => {
    expect(parseRubricIds(' 3, 7 12;4 ')).toEqual([3, 7, 12, 4]);
    expect(parseRubricIds('')).toEqual([]);
    expect(parseRubricIds('3, x')).toBeNull();
    expect(parseRubricIds('-1')).toBeNull();
  });
});

describe('page editor: publication', () => {
  it('asks an article for its rubric ids before calling the service', async () => {
    const fake = service();
    renderApp('/pages/5', fake.api);
    const region = await publication();
    await userEvent.click(within(region).getByRole('button', { name: 'Publish' }));
    const input = within(region).getByRole('textbox', { name: /^Rubric ids/ });
    expect(await within(region).findByText('An article needs at least one rubric id.')).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(fake.calls.some((c) => c.method === 'POST' && c.path.includes('/publish'))).toBe(false);
  });

  it('publishes with the rubric ids and shows the status, then sends an update', async () => {
    const fake = service();
    renderApp('/pages/5', fake.api);
    const region = await publication();
    await userEvent.type(within(region).getByRole('textbox', { name: /^Rubric ids/ }), '3, 7');
    await userEvent.click(within(region).getByRole('button', { name: 'Publish' }));
    const table = await within(region).findByRole('table', { name: 'Publication status' });
    expect(fake.calls.find((c) => c.path === '/api/pages/5/publish')?.body).toEqual({ rubric_ids: [3, 7] });
    expect(table.textContent).toContain('https://cms.example.com');
    expect(table.textContent).toContain('Id at the provider41');
    expect(table.textContent).toContain('Slug at the providerlaunch');
    expect(within(region).getByText('Published', { selector: '.mantine-Badge-label' })).toBeTruthy();

    await userEvent.click(within(region).getByRole('button', { name: 'Publish update' }));
    await waitFor(() => expect(fake.calls.some((c) => c.path === '/api/pages/5/publish-update')).toBe(true));
    expect(fake.calls.find((c) => c.path === '/api/pages/5/publish-update')?.body).toEqual({});
  });

  it('shows the provider’s message when publication fails, and the page stays unpublished', async () => {
    renderApp('/pages/5', service().api);
    const region = await publication();
    await userEvent.type(within(region).getByRole('textbox', { name: /^Rubric ids/ }), '999');
    await userEvent.click(within(region).getByRole('button', { name: 'Publish' }));
    const alert = await within(region).findByRole('alert');
    expect(alert.textContent).toContain('The provider refused the publication');
    expect(alert.textContent).toContain('rubric 999 does not exist');
    expect(within(region).getByText('Not published')).toBeTruthy();
    expect(within(region).getByRole('button', { name: 'Publish' })).toBeTruthy();
  });

  it('shows a failure again when the page is opened later, with its time, until a publication succeeds', async () => {
    const fake = service();
    const first = renderApp('/pages/5', fake.api);
    let region = await publication();
    await userEvent.type(within(region).getByRole('textbox', { name: /^Rubric ids/ }), '999');
    await userEvent.click(within(region).getByRole('button', { name: 'Publish' }));
    await within(region).findByRole('alert');
    first.unmount();

    renderApp('/pages/5', fake.api);
    region = await publication();
    const note = await within(region).findByRole('note');
    expect(note.textContent).toContain('The provider refused the publication');
    expect(note.textContent).toContain('rubric 999 does not exist');
    expect(note.textContent).toContain(`Last attempt: ${formatDateTime(failedAt)}.`);
    expect(within(region).queryByRole('alert')).toBeNull();

    await userEvent.type(within(region).getByRole('textbox', { name: /^Rubric ids/ }), '3');
    await userEvent.click(within(region).getByRole('button', { name: 'Publish' }));
    await within(region).findByRole('table', { name: 'Publication status' });
    await waitFor(() => expect(within(region).queryByText(/rubric 999 does not exist/)).toBeNull());
  });

  it('puts a refused rubric id at the rubric field and focuses it', async () => {
    renderApp('/pages/5', service().api);
    const region = await publication();
    const input = within(region).getByRole('textbox', { name: /^Rubric ids/ });
    await userEvent.type(input, '3, 0');
    await userEvent.click(within(region).getByRole('button', { name: 'Publish' }));
    expect(await within(region).findByText('Must be >= 1.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(input));
  });

  it('points to the site’s settings when the site has no provider', async () => {
    const fake = service();
    fake.on('GET /api/sites/{id}/provider', () => [200, noProvider]);
    renderApp('/pages/5', fake.api);
    const region = await publication();
    const link = await within(region).findByRole('link', { name: 'Set the site’s provider' });
    expect(link.getAttribute('href')).toBe('/sites/1');
  });

  it('publishes a template with an empty body and no rubric field', async () => {
    const fake = service('template');
    renderApp('/pages/5', fake.api);
    const region = await publication();
    expect(within(region).queryByRole('textbox', { name: /Rubric ids/ })).toBeNull();
    await userEvent.click(within(region).getByRole('button', { name: 'Publish' }));
    await within(region).findByRole('table', { name: 'Publication status' });
    expect(fake.calls.find((c) => c.path === '/api/pages/5/publish')?.body).toEqual({});
  });
});

describe('page editor: details', () => {
  it('saves the metadata, empty fields as null', async () => {
    const fake = service();
    renderApp('/pages/5', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Details' }));
    const panel = await screen.findByRole('dialog', { name: 'Page details' });
    const name = within(panel).getByRole('textbox', { name: /^Name/ });
    await userEvent.clear(name);
    await userEvent.type(name, 'Spring launch');
    await userEvent.type(within(panel).getByRole('textbox', { name: /^Slug/ }), 'spring-launch');
    await userEvent.type(within(panel).getByRole('textbox', { name: /^Meta title/ }), 'Spring');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save details' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Page details' })).toBeNull());
    expect(fake.calls.find((c) => c.method === 'PUT')?.body).toEqual({
      name: 'Spring launch',
      site_id: 1,
      folder_id: null,
      slug: 'spring-launch',
      meta_title: 'Spring',
      meta_description: null,
      meta_keywords: null,
      meta_robots: null,
    });
    expect(await screen.findByRole('heading', { name: 'Spring launch', level: 1 })).toBeTruthy();
  });

  it('shows a taken slug at the field, focused, and keeps the panel open', async () => {
    renderApp('/pages/5', service().api);
    await userEvent.click(await screen.findByRole('button', { name: 'Details' }));
    const panel = await screen.findByRole('dialog', { name: 'Page details' });
    const slug = within(panel).getByRole('textbox', { name: /^Slug/ });
    await userEvent.type(slug, 'taken');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save details' }));
    expect(await within(panel).findByText('Taken.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(slug));
  });

  it('refuses a malformed slug before calling the service', async () => {
    const fake = service();
    renderApp('/pages/5', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Details' }));
    const panel = await screen.findByRole('dialog', { name: 'Page details' });
    await userEvent.type(within(panel).getByRole('textbox', { name: /^Slug/ }), 'Not A Slug');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save details' }));
    expect(await within(panel).findByText(/Lower-case letters and digits/)).toBeTruthy();
    expect(fake.calls.some((c) => c.method === 'PUT')).toBe(false);
  });
});
