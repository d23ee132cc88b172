import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, page, user } from './fake-api';
import { renderApp } from './render';

const stamp = '2026-01-01T10:00:00.000Z';

function service() {
  let tags = [{ id: 1, name: 'Hero', slug: 'hero' }];
  let sources = [
    {
      id: 'news',
      title: 'News',
      description: '',
      result_type_id: 'list',
      params_schema: { type: 'object', additionalProperties: false },
      created_at: stamp,
      updated_at: stamp,
    },
  ];
  return fakeApi({
    'GET /api/auth/me': () => [200, { user: user({ is_admin: true }) }],
    'GET /api/admin/tags': () => [200, page(tags)],
    'POST /api/admin/tags': ({ body }) => {
      const { name, slug } = body as { name: string; slug?: string };
      const tag = { id: 2, name, slug: slug ?? name.toLowerCase() };
      tags = [...tags, tag];
      return [201, tag];
    },
    'PUT /api/admin/tags/{id}': ({ params, body }) => {
      tags = tags.map((t) => (t.id === Number(params.id) ? { ...t, ...(body as object) } : t));
      return [200, tags.find((t) => t.id === Number(params.id))];
    },
    'DELETE /api/admin/tags/{id}': ({ params }) => {
      tags = tags.filter((t) => t.id !== Number(params.id));
      return [204];
    },
    'GET /api/admin/data-sources': () => [200, page(sources)],
    'PUT /api/admin/data-sources/{id}': ({ params, body }) => {
      sources = sources.map((s) => (s.id === params.id ? { ...s, ...(body as object) } : s));
      return [200, sources.find((s) => s.id === params.id)];
    },
  });
}

describe('catalog (administrators)', () => {
  it('creates a tag, leaving an empty slug to the service', async () => {
    const fake = service();
    renderApp('/admin/catalog', fake.api);
    const form = await screen.findByRole('form', { name: 'Create a tag' });
    await userEvent.type(within(form).getByRole('textbox', { name: /^name/i }), 'Pricing');
    await userEvent.click(within(form).getByRole('button', { name: 'Create tag' }));
    expect(await screen.findByRole('rowheader', { name: 'Pricing' })).toBeTruthy();
    expect(fake.calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Pricing' });
  });

  it('refuses an empty name without calling, and shows a server refusal on its field', async () => {
    const fake = service();
    fake.on('POST /api/admin/tags', () => [
      409,
      { error: 'Slug taken.', errors: [{ path: 'slug', message: 'The slug hero is taken.' }] },
    ]);
    renderApp('/admin/catalog', fake.api);
    const form = await screen.findByRole('form', { name: 'Create a tag' });
    await userEvent.click(within(form).getByRole('button', { name: 'Create tag' }));
    expect(await within(form).findByText('Name is required.')).toBeTruthy();
    expect(fake.calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.type(within(form).getByRole('textbox', { name: /^name/i }), 'Hero 2');
    await userEvent.type(within(form).getByRole('textbox', { name: /^slug/i }), 'hero');
    await userEvent.click(within(form).getByRole('button', { name: 'Create tag' }));
    expect(await within(form).findByText('The slug hero is taken.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(within(form).getByRole('textbox', { name: /^slug/i })));
  });

  it('edits a tag in a dialog', async () => {
    const fake = service();
    renderApp('/admin/catalog', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit tag Hero' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit tag “Hero”' });
    const name = within(dialog).getByRole('textbox', { name: /^name/i });
    await userEvent.clear(name);
    await userEvent.type(name, 'Heroes');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('rowheader', { name: 'Heroes' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.calls.find((c) => c.method === 'PUT')?.body).toEqual({ name: 'Heroes', slug: 'hero' });
  });

  it('deletes a tag only after the confirmation', async () => {
    const fake = service();
    renderApp('/admin/catalog', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete tag Hero' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this tag?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.some((c) => c.method === 'DELETE')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Delete tag Hero' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete tag' }));
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: 'Hero' })).toBeNull());
  });

  it('edits a data source: the id is not editable, bad JSON stays on its field, good JSON is sent parsed', async () => {
    const fake = service();
    renderApp('/admin/catalog', fake.api);
    await userEvent.click(await screen.findByRole('tab', { name: 'Data sources' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit data source News' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByRole('textbox', { name: /^id/i })).toBeNull();
    const schema = within(dialog).getByRole('textbox', { name: /params schema/i });
    await userEvent.clear(schema);
    await userEvent.type(schema, '{{"type": ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This is not valid JSON.')).toBeTruthy();
    expect(fake.calls.some((c) => c.method === 'PUT')).toBe(false);

    await userEvent.clear(schema);
    await userEvent.type(schema, '{{"type": "object"}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = fake.calls.find((c) => c.method === 'PUT')!;
    expect(put.path).toBe('/api/admin/data-sources/news');
    expect((put.body as { params_schema: unknown }).params_schema).toEqual({ type: 'object' });
    expect(put.body).not.toHaveProperty('id');
  });

  it('shows a failed load of a list', async () => {
    const fake = service();
    fake.on('GET /api/admin/tags', () => [403, { error: 'Administrators only.' }]);
    renderApp('/admin/catalog', fake.api);
    expect((await screen.findByRole('alert')).textContent).toContain('Administrators only.');
  });
});
