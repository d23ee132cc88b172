import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api/errors';
import { placeServerErrors } from '../src/screens/page-editor/server-error-schema';
import { fakeApi, pageBody, pageInstance, user } from './fake-api';
import { renderApp } from './render';
import { noProvider, unpublished } from './publication';

const pageWith = (values: Record<string, unknown>) =>
  pageBody({ blocks: [pageInstance({ placeholder_values: values })] });

function service() {
  let values: Record<string, unknown> = { title: 'Hello', subtitle: 'World' };
  return fakeApi({
    'GET /api/auth/me': () => [200, { user: user() }],
    'GET /api/pages/{id}/publication': () => [200, unpublished],
    'GET /api/sites/{id}/provider': () => [200, noProvider],
    'GET /api/pages/{id}': () => [200, pageWith(values)],
    'GET /api/blocks/{id}/placeholder-schema': () => [
      200,
      {
        block_type: 'schema',
        schema: {
          type: 'object',
          properties: { title: { type: 'string', title: 'Title' }, subtitle: { type: 'string', title: 'Subtitle' } },
        },
        example: {},
        binding_slots: [],
      },
    ],
    'POST /api/pages/{id}/preview': () => [200, '<h1>Hello</h1>', { 'content-type': 'text/html' }],
    'PUT /api/pages/{pageId}/blocks/{pbId}': ({ body }) => {
      values = (body as { placeholder_values: Record<string, unknown> }).placeholder_values;
      return [200, pageWith(values)];
    },
  });
}

async function openForm(fake: ReturnType<typeof service>) {
  renderApp('/pages/5', fake.api);
  await userEvent.click(await screen.findByRole('button', { name: 'Edit Hero' }));
  const panel = await screen.findByRole('region', { name: 'Edit “Hero”' });
  await within(panel).findByRole('textbox', { name: 'Title' });
  return panel;
}

describe('page editor: values', () => {
  it('edits an instance in a form generated from its placeholder schema', async () => {
    const fake = service();
    const panel = await openForm(fake);
    const title = within(panel).getByRole<HTMLInputElement>('textbox', { name: 'Title' });
    expect(title.value).toBe('Hello');
    await userEvent.clear(title);
    await userEvent.type(title, 'Welcome');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save changes' }));
    expect((await within(panel).findByRole('status')).textContent).toContain('Saved');
    expect(fake.calls.find((c) => c.method === 'PUT')).toMatchObject({
      path: '/api/pages/5/blocks/9',
      body: { placeholder_values: { title: 'Welcome', subtitle: 'World' } },
    });
  });

  it('shows a refusal at the field its path names and focuses it; others go to the summary', async () => {
    const fake = service();
    fake.on('PUT /api/pages/{pageId}/blocks/{pbId}', () => [
      400,
      {
        error: 'Invalid values.',
        errors: [
          { path: 'placeholder_values.subtitle', message: 'Too long.' },
          { path: 'bindings.feed.source', message: 'Unknown source.' },
        ],
      },
    ]);
    const panel = await openForm(fake);
    await userEvent.click(within(panel).getByRole('button', { name: 'Save changes' }));
    // The error is the field's accessible description: what a screen reader says with it.
    const subtitle = await within(panel).findByRole('textbox', { name: 'Subtitle', description: /Too long\./ });
    expect(subtitle.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(subtitle));
    expect(within(panel).getByRole('alert').textContent).toContain('Source: Unknown source.');
  });

  it('asks for the fields of the revision the instance is pinned to, not the block’s current one', async () => {
    const fake = service();
    fake.on('GET /api/pages/{id}', () => [
      200,
      pageBody({
        blocks: [pageInstance({ version: { major: 2, minor: 3 }, update_status: 'outdated_major' })],
      }),
    ]);
    await openForm(fake);
    const asked = fake.calls.filter((c) => c.path === '/api/blocks/3/placeholder-schema');
    expect(asked.map((c) => c.query.get('version'))).toEqual(['2.3']);
  });

  it('says so when the block’s fields cannot be loaded', async () => {
    const fake = service();
    fake.on('GET /api/blocks/{id}/placeholder-schema', () => [404, { error: 'Block not found.' }]);
    renderApp('/pages/5', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Hero' }));
    const panel = await screen.findByRole('region', { name: 'Edit “Hero”' });
    expect((await within(panel).findByRole('alert')).textContent).toContain('Block not found.');
  });
});

describe('placeServerErrors', () => {
  it('nests a path into an error schema with the rjsf id, and leaves unknown fields to the summary', () => {
    const error = new ApiError(400, {
      error: 'Invalid.',
      errors: [
        { path: 'placeholder_values.items[0].caption', message: 'Required.' },
        { path: 'placeholder_values.nope', message: 'Unknown.' },
      ],
    });
    const placed = placeServerErrors(error, 'placeholder_values', (id) => id === 'root_items_0_caption');
    expect(placed.schema).toEqual({ items: { 0: { caption: { __errors: ['Required.'] } } } });
    expect(placed.ids).toEqual(['root_items_0_caption']);
    expect(placed.summary).toEqual(['Unknown.']);
  });
});
