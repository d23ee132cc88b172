import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EditorView } from '@uiw/react-codemirror';
import { describe, expect, it } from 'vitest';
import { fakeApi, page, user } from './fake-api';
import { renderApp } from './render';

/** The service as the new-block screen needs it: no tags, sources or result types. */
const service = () =>
  fakeApi({
    'GET /api/auth/me': () => [200, { user: user() }],
    'GET /api/tags': () => [200, page([])],
    'GET /api/data-sources': () => [200, page([])],
    'GET /api/data-result-types': () => [200, page([])],
  });

const group = (name: string) => screen.getByRole('group', { name });

async function rename(row: HTMLElement, name: string) {
  const input = within(row).getAllByRole('textbox', { name: /^Field name/ })[0]!;
  await userEvent.clear(input);
  await userEvent.click(input);
  await userEvent.paste(name);
}

/** The options of a Mantine select: its listbox is the one its input controls (every select keeps one in the page). */
async function optionsOf(input: HTMLElement) {
  await userEvent.click(input);
  return waitFor(() => {
    const listbox = document.getElementById(input.getAttribute('aria-controls') ?? '');
    if (!listbox) throw new Error('the list of options is not open');
    return within(listbox).getAllByRole('option', { hidden: true });
  });
}

/** Picks a type in the row's own Type select (the first one inside it: nested rows come after). */
async function setType(row: HTMLElement, type: string, label: RegExp = /^Type/) {
  const options = await optionsOf(within(row).getAllByRole('combobox', { name: label })[0]!);
  await userEvent.click(options.find((o) => o.textContent === type)!);
}

const json = async () => {
  await userEvent.click(screen.getByRole('tab', { name: 'JSON' }));
  const text = screen.getByRole('textbox', { name: 'Fields as JSON' }).textContent;
  await userEvent.click(screen.getByRole('tab', { name: 'Visual editor' }));
  return JSON.parse(text) as unknown;
};

function setJson(text: string) {
  const content = screen.getByRole('textbox', { name: 'Fields as JSON' });
  const view = EditorView.findFromDOM(content)!;
  act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }));
}

describe('nested fields in the visual editor', { timeout: 120_000 }, () => {
  it('builds an object with its own fields, and the JSON view has them', async () => {
    renderApp('/blocks/new', service().api);
    await userEvent.click(await screen.findByRole('button', { name: 'Add a field' }));
    await rename(group('Field 1: field_1'), 'author');
    await setType(group('Field 1: author'), 'object');
    expect(within(group('Field 1: author')).getByText('No fields yet: add the first one.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Add a field to author' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add a field to author' }));
    await rename(group('Field 1 of author: field_1'), 'name');
    await userEvent.click(within(group('Field 1 of author: name')).getByRole('checkbox', { name: 'Required' }));
    await setType(group('Field 2 of author: field_2'), 'url');

    expect(await json()).toEqual([
      {
        name: 'author',
        type: 'object',
        fields: [
          { name: 'name', type: 'string', required: true },
          { name: 'field_2', type: 'url' },
        ],
      },
    ]);
  });

  it('builds an array of objects: its items have a type and fields, but no name', async () => {
    renderApp('/blocks/new', service().api);
    await userEvent.click(await screen.findByRole('button', { name: 'Add a field' }));
    await rename(group('Field 1: field_1'), 'gallery');
    await setType(group('Field 1: gallery'), 'array');
    const item = group('Each item of gallery');
    expect(within(item).queryByRole('textbox', { name: /^Field name/ })).toBeNull();
    await setType(item, 'object', /^Type of each item/);
    await userEvent.click(screen.getByRole('button', { name: 'Add a field to gallery[]' }));
    await rename(group('Field 1 of gallery[]: field_1'), 'caption');

    expect(await json()).toEqual([
      { name: 'gallery', type: 'array', items: { type: 'object', fields: [{ name: 'caption', type: 'string' }] } },
    ]);
  });

  it('reorders and removes nested fields from what the JSON view typed, and the JSON follows', async () => {
    renderApp('/blocks/new', service().api);
    await userEvent.click(await screen.findByRole('tab', { name: 'JSON' }));
    setJson(
      JSON.stringify([
        {
          name: 'card',
          type: 'object',
          fields: [
            { name: 'title', type: 'string' },
            { name: 'body', type: 'text' },
            { name: 'links', type: 'array', items: { type: 'url' } },
          ],
        },
      ]),
    );
    await userEvent.click(screen.getByRole('tab', { name: 'Visual editor' }));
    expect(group('Field 3 of card: links')).toBeTruthy();
    expect(
      within(group('Each item of card.links')).getAllByRole('combobox', { name: /^Type of each item/ })[0],
    ).toHaveProperty('value', 'url');

    await userEvent.click(screen.getByRole('button', { name: 'Move card.body up' }));
    // The row keeps what was typed in it as it moves.
    await rename(group('Field 1 of card: body'), 'summary');
    await userEvent.click(screen.getByRole('button', { name: 'Remove card.links' }));
    expect(screen.queryByRole('group', { name: /links/ })).toBeNull();
    expect(await json()).toEqual([
      {
        name: 'card',
        type: 'object',
        fields: [
          { name: 'summary', type: 'text' },
          { name: 'title', type: 'string' },
        ],
      },
    ]);
  });

  it('offers no object or array at the sixth level, and shows the service’s refusal of a seventh at its path, focused', async () => {
    const fake = service();
    fake.on('POST /api/blocks', () => [
      422,
      {
        error: 'The block schema (schema_content) is not valid: see errors[].',
        errors: [
          {
            path: 'schema_content[0].fields[0].fields[0].fields[0].fields[0].fields[0].fields[0]',
            message: "Fields nest at most 6 levels deep (objects' fields and arrays' items).",
          },
        ],
      },
    ]);
    renderApp('/blocks/new', fake.api);
    const name = await screen.findByRole('textbox', { name: 'Block name' });
    await userEvent.type(name, 'Deep');
    // Six levels, then a seventh typed in the JSON view (the editor itself would not build it).
    let def: Record<string, unknown> = { name: 'f7', type: 'string' };
    for (let level = 6; level >= 1; level--) def = { name: `f${level}`, type: 'object', fields: [def] };
    await userEvent.click(screen.getByRole('tab', { name: 'JSON' }));
    setJson(JSON.stringify([def]));
    await userEvent.click(screen.getByRole('tab', { name: 'Visual editor' }));

    const sixth = group('Field 1 of f1.f2.f3.f4.f5: f6');
    const offered = (await optionsOf(within(sixth).getAllByRole('combobox', { name: /^Type/ })[0]!)).map(
      (o) => o.textContent,
    );
    expect(offered).not.toContain('array');
    expect(offered).not.toContain('binding');
    expect(offered).toContain('string');
    // Its own type stays on offer: it is what the field is.
    expect(offered).toContain('object');
    await userEvent.keyboard('{Escape}');
    expect(within(sixth).getByText(/Fields nest at most 6 levels deep: this object cannot hold more/)).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Create block' }));
    const seventh = await screen.findByRole('group', { name: 'Field 1 of f1.f2.f3.f4.f5.f6: f7' });
    await waitFor(() => expect(document.activeElement).toBe(seventh));
    expect(within(seventh).getByRole('alert').textContent).toMatch(/Fields nest at most 6 levels deep/);
    expect(seventh.getAttribute('aria-describedby')).toBe(within(seventh).getByRole('alert').id);
  });
});
