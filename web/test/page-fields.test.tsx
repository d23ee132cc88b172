import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, pageBody, pageInstance, user } from './fake-api';
import { typedIn } from '../src/screens/sandboxed-html';
import { renderApp } from './render';
import { noProvider, unpublished } from './publication';

const pageWith = (values: Record<string, unknown>) =>
  pageBody({ blocks: [pageInstance({ placeholder_values: values })] });

/** A block with one field of each widget the placeholder schema names, as the service compiles them. */
const schema: Record<string, unknown> = {
  type: 'object',
  properties: {
    heading: { type: 'string', title: 'Heading', 'x-widget': 'input' },
    body: { type: 'string', title: 'Text', 'x-widget': 'textarea' },
  },
};

function service(
  initial: Record<string, unknown> = { heading: 'Hello', body: 'One line' },
  properties: Record<string, unknown> = {},
) {
  const withMore = { ...schema, properties: { ...(schema.properties as object), ...properties } };
  let values = initial;
  return fakeApi({
    'GET /api/auth/me': () => [200, { user: user() }],
    'GET /api/pages/{id}/publication': () => [200, unpublished],
    'GET /api/sites/{id}/provider': () => [200, noProvider],
    'GET /api/pages/{id}': () => [200, pageWith(values)],
    'GET /api/blocks/{id}/placeholder-schema': () => [
      200,
      { block_type: 'schema', schema: withMore, example: {}, binding_slots: [] },
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
  await within(panel).findByRole('textbox', { name: 'Heading' });
  return panel;
}

const puts = (fake: ReturnType<typeof service>) => fake.calls.filter((c) => c.method === 'PUT');

describe('page editor: a text field', () => {
  it('is a multi-line box: Enter is a line break, never a save, and the breaks are sent as typed', async () => {
    const fake = service();
    const panel = await openForm(fake);
    const body = within(panel).getByRole<HTMLTextAreaElement>('textbox', { name: 'Text' });
    expect(body.tagName).toBe('TEXTAREA');
    await userEvent.clear(body);
    await userEvent.type(body, 'First line{Enter}Second line{Enter}{Enter}A paragraph');
    expect(body.value).toBe('First line\nSecond line\n\nA paragraph');
    expect(puts(fake)).toHaveLength(0);
    await userEvent.click(within(panel).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(puts(fake)).toHaveLength(1));
    expect(puts(fake)[0]!.body).toEqual({
      placeholder_values: { heading: 'Hello', body: 'First line\nSecond line\n\nA paragraph' },
    });
  });

  it('Ctrl+S and Cmd+S save the form, from a multi-line box too', async () => {
    const fake = service();
    const panel = await openForm(fake);
    const body = within(panel).getByRole<HTMLTextAreaElement>('textbox', { name: 'Text' });
    await userEvent.type(body, '{Enter}two');
    await userEvent.keyboard('{Control>}s{/Control}');
    await waitFor(() => expect(puts(fake)).toHaveLength(1));
    expect(puts(fake)[0]!.body).toEqual({ placeholder_values: { heading: 'Hello', body: 'One line\ntwo' } });
    expect((await within(panel).findByRole('status')).textContent).toContain('Saved');
    await userEvent.type(within(panel).getByRole('textbox', { name: 'Heading' }), '!');
    await userEvent.keyboard('{Meta>}s{/Meta}');
    await waitFor(() => expect(puts(fake)).toHaveLength(2));
    expect(puts(fake)[1]!.body).toMatchObject({ placeholder_values: { heading: 'Hello!' } });
  });
});

describe('page editor: a rich-text field', () => {
  const story = { type: 'string', title: 'Story', contentMediaType: 'text/html', 'x-widget': 'richtext' };

  it('is a rich-text editor showing the HTML, with a formatting toolbar whose state it tells', async () => {
    const fake = service({ heading: 'Hello', story: '<p>Once <strong>upon</strong> a time</p>' }, { story });
    const panel = await openForm(fake);
    const editor = await within(panel).findByRole('textbox', { name: 'Story (rich text)' });
    expect(editor.getAttribute('contenteditable')).toBe('true');
    expect(editor.getAttribute('aria-multiline')).toBe('true');
    expect(editor.innerHTML).toContain('<strong>upon</strong>');
    const toolbar = within(panel).getByRole('toolbar', { name: 'Story formatting' });
    expect(within(toolbar).getByRole('button', { name: 'Bold' }).getAttribute('aria-pressed')).toBe('false');
    for (const name of ['Italic', 'Heading', 'Subheading', 'Bulleted list', 'Numbered list', 'Quote'])
      within(toolbar).getByRole('button', { name });
    // Opened clean: the editor's own normalisation of the HTML is no change.
    expect(within(panel).getByText('No unsaved changes')).toBeTruthy();
  });
});

describe('page editor: a colour field', () => {
  const accent = {
    type: 'string',
    title: 'Accent',
    pattern: '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$',
    'x-widget': 'color',
  };

  it('has a picker: a swatch chosen is the value sent', async () => {
    const fake = service({ heading: 'Hello', accent: '#1e3a8a' }, { accent });
    const panel = await openForm(fake);
    const input = within(panel).getByRole<HTMLInputElement>('textbox', { name: 'Accent' });
    expect(input.value).toBe('#1e3a8a');
    await userEvent.click(within(panel).getByRole('button', { name: 'Pick accent' }));
    // The dropdown's transition never ends in happy-dom (it stays display: none there): found hidden or not.
    await userEvent.click(await screen.findByRole('button', { name: '#e03131', hidden: true }));
    await waitFor(() => expect(input.value).toBe('#e03131'));
    await userEvent.click(within(panel).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(puts(fake)).toHaveLength(1));
    expect(puts(fake)[0]!.body).toMatchObject({ placeholder_values: { accent: '#e03131' } });
  });
});

describe('page editor: a list field', () => {
  const events = {
    type: 'array',
    title: 'Events',
    'x-widget': 'list',
    items: {
      type: 'object',
      'x-widget': 'group',
      properties: {
        when: { type: 'string', title: 'When', format: 'date', 'x-widget': 'date' },
        name: { type: 'string', title: 'Name', 'x-widget': 'input' },
      },
    },
  };
  const initial = { heading: 'Hello', events: [{ name: 'Spring fair' }, { name: 'Summer gala' }] };

  it('titles each item by its first text field; collapses, moves and removes it by name; adds "Add event"', async () => {
    const fake = service(initial, { events });
    const panel = await openForm(fake);
    const spring = await within(panel).findByRole('button', { name: 'Spring fair' });
    expect(spring.getAttribute('aria-expanded')).toBe('true');
    await userEvent.click(spring);
    expect(spring.getAttribute('aria-expanded')).toBe('false');
    expect(within(panel).getByRole('button', { name: 'Move “Spring fair” up' }).hasAttribute('disabled')).toBe(true);
    await userEvent.click(within(panel).getByRole('button', { name: 'Move “Summer gala” up' }));
    await userEvent.click(within(panel).getByRole('button', { name: 'Add event' }));
    const third = await within(panel).findByRole('button', { name: 'Event 3' });
    expect(third.getAttribute('aria-expanded')).toBe('true');
    // No heading made of the list's name and an index ("events-1").
    expect(within(panel).queryByText(/events-\d/i)).toBeNull();
    // The collapsed item's fields are hidden: the two shown are Summer gala's and the new one's.
    const names = within(panel).getAllByRole<HTMLInputElement>('textbox', { name: 'Name' });
    expect(names.map((n) => n.value)).toEqual(['Summer gala', '']);
    await userEvent.type(names[1]!, 'Autumn ball');
    await within(panel).findByRole('button', { name: 'Autumn ball' });
    await userEvent.click(within(panel).getByRole('button', { name: 'Remove “Spring fair”' }));
    await userEvent.keyboard('{Control>}s{/Control}');
    await waitFor(() => expect(puts(fake)).toHaveLength(1));
    expect(puts(fake)[0]!.body).toEqual({
      placeholder_values: { heading: 'Hello', events: [{ name: 'Summer gala' }, { name: 'Autumn ball' }] },
    });
  });
});

describe('typedIn: a value typed in place, as the app takes it from the preview', () => {
  const frame = document.createElement('iframe');
  const host = { postMessage: () => undefined };
  Object.defineProperty(frame, 'contentWindow', { value: host });
  const editable = { heading: { value: 'Notes', label: 'Heading', multiline: false } };
  const from = (data: unknown, source: unknown = host) =>
    typedIn(new MessageEvent('message', { data, source: source as Window }), frame, 7, editable);

  it('takes only {pb: text, block, field, value} from the host’s window, for the chosen block and an offered field', () => {
    expect(from({ pb: 'text', block: 7, field: 'heading', value: 'Poems' })).toEqual({
      field: 'heading',
      value: 'Poems',
    });
    // The rendered page's own window (a block's script posting to the app), another window, none.
    expect(from({ pb: 'text', block: 7, field: 'heading', value: 'x' }, { postMessage: () => undefined })).toBeNull();
    expect(from({ pb: 'text', block: 7, field: 'heading', value: 'x' }, window)).toBeNull();
    expect(from({ pb: 'text', block: 7, field: 'heading', value: 'x' }, null)).toBeNull();
    // Another block, a field not offered, another shape.
    expect(from({ pb: 'text', block: 8, field: 'heading', value: 'x' })).toBeNull();
    expect(from({ pb: 'text', block: 7, field: 'body', value: 'x' })).toBeNull();
    expect(from({ pb: 'text', block: 7, field: 'toString', value: 'x' })).toBeNull();
    expect(from({ pb: 'text', block: 7, field: 'heading', value: 1 })).toBeNull();
    expect(from({ pb: 'text', block: 7, field: 'heading', value: 'x', then: 'save' })).toBeNull();
    expect(from({ pb: 'save', block: 7, field: 'heading', value: 'x' })).toBeNull();
    expect(from([{ pb: 'text', block: 7, field: 'heading', value: 'x' }])).toBeNull();
    expect(from({ pb: 'text', block: 7, field: 'heading', value: 'x'.repeat(100_001) })).toBeNull();
  });
});
