import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EditorView } from '@uiw/react-codemirror';
import { describe, expect, it } from 'vitest';
import { fakeApi, page, user, type FakeRequest } from './fake-api';
import { renderApp } from './render';

const heroFields = [
  { name: 'title', type: 'string', required: true, label: 'Title' },
  { name: 'subtitle', type: 'text' },
];

const block = (overrides: Record<string, unknown> = {}) => ({
  id: 7,
  name: 'My hero',
  description: 'A title',
  docs: '',
  block_type: 'schema',
  kind: 'content',
  scope: 'user',
  tags: [],
  version: { major: 1, minor: 2 },
  current_revision: {
    id: 20,
    version: { major: 1, minor: 2 },
    template_content: '<h1>{{ title }}</h1>',
    css: 'h1 { color: red; }',
    js: '',
    schema_content: heroFields,
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
  ...overrides,
});

function service() {
  return fakeApi({
    'GET /api/auth/me': () => [200, { user: user() }],
    'GET /api/tags': () => [200, page([{ id: 1, name: 'Marketing', slug: 'marketing' }])],
    'GET /api/data-sources': () => [200, page([])],
    'GET /api/data-result-types': () => [200, page([])],
    'GET /api/blocks/{id}': () => [200, block()],
    'GET /api/blocks/{id}/placeholder-schema': () => [
      200,
      { block_type: 'schema', schema: { type: 'object', properties: {} }, example: {}, binding_slots: [] },
    ],
    'POST /api/blocks/{id}/preview': () => [200, '<h1>Hi</h1>', { 'content-type': 'text/html' }],
    'GET /api/blocks/{id}/usages': () => [200, { ...page([]), outdated_total: 0 }],
    'GET /api/blocks/{id}/revisions': () => [
      200,
      page([
        {
          id: 20,
          version: { major: 1, minor: 2 },
          version_bump: 'minor',
          changelog: 'Subtitle',
          created_at: '2026-01-02T10:00:00.000Z',
        },
        {
          id: 19,
          version: { major: 1, minor: 0 },
          version_bump: null,
          changelog: 'First',
          created_at: '2026-01-01T10:00:00.000Z',
        },
      ]),
    ],
    'GET /api/block-submissions': () => [200, page([])],
  });
}

const bodyOf = (fake: ReturnType<typeof service>, method: string, path: string) =>
  fake.calls.filter((c) => c.method === method && c.path === path).map((c: FakeRequest) => c.body);

/** Replaces an input's text in one paste: typing key by key into a large form is slow on a shared machine. */
async function fill(input: HTMLElement, text: string) {
  await userEvent.clear(input);
  await userEvent.click(input);
  await userEvent.paste(text);
}

/** Types into a CodeMirror editor found by its label, as a user's keystrokes would change its document. */
function setCode(label: string, text: string) {
  const content = screen.getByRole('textbox', { name: label });
  const view = EditorView.findFromDOM(content)!;
  act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }));
}

describe('creating a block', { timeout: 60_000 }, () => {
  it('sends name, kind, template and the fields built in the visual editor, then opens the block with its version', async () => {
    const fake = service();
    fake.on('POST /api/blocks', (request) => [
      201,
      block({ id: 9, name: (request.body as { name: string }).name, version: { major: 1, minor: 0 } }),
    ]);
    const { router } = renderApp('/blocks/new', fake.api);
    await fill(await screen.findByRole('textbox', { name: 'Block name' }), 'Banner');
    setCode('Template', '<p>{{ text }}</p>');
    await userEvent.click(screen.getByRole('button', { name: 'Add a field' }));
    const field = screen.getByRole('group', { name: 'Field 1: field_1' });
    const name = within(field).getByRole('textbox', { name: /^Field name/ });
    await fill(name, 'text');
    await userEvent.click(
      within(screen.getByRole('group', { name: 'Field 1: text' })).getByRole('checkbox', { name: 'Required' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Create block' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/blocks/9'));
    const [sent] = bodyOf(fake, 'POST', '/api/blocks') as Record<string, unknown>[];
    expect(sent).toMatchObject({
      name: 'Banner',
      kind: 'content',
      block_type: 'schema',
      template: '<p>{{ text }}</p>',
      schema_content: [{ name: 'text', type: 'string', required: true }],
    });
    expect(await screen.findByText('The block is created')).toBeTruthy();
    expect(screen.getByText('Version 1.0.')).toBeTruthy();
  });

  it('shows a refusal next to the field it names, focused, and the rest in a summary', async () => {
    const fake = service();
    fake.on('POST /api/blocks', () => [
      422,
      {
        error: 'The block schema (schema_content) is not valid: see errors[].',
        errors: [
          { path: 'schema_content[0].name', message: 'The name must match ^[a-z_][a-z0-9_]*$.' },
          { path: 'schema_content[0].fields[0].name', message: 'This field is required.' },
        ],
      },
    ]);
    renderApp('/blocks/new', fake.api);
    await fill(await screen.findByRole('textbox', { name: 'Block name' }), 'Bad');
    await userEvent.click(screen.getByRole('button', { name: 'Add a field' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create block' }));

    const field = await screen.findByRole('group', { name: 'Field 1: field_1' });
    const name = within(field).getByRole('textbox', { name: /^Field name/ });
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(field.textContent).toContain('The name must match');
    // The place in words, never the API path.
    expect(screen.getByText('Name: This field is required.')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/schema_content/);
  });

  it('makes a new field’s name from its label until a name is typed; a saved field keeps its name', async () => {
    const fake = service();
    renderApp('/blocks/7/edit', fake.api);
    const title = await screen.findByRole('group', { name: 'Field 1: title' });
    // A saved field: its label changes, its name (the key of saved values) stays.
    await fill(within(title).getByRole('textbox', { name: 'Label' }), 'Heading Text');
    expect(within(title).getByRole<HTMLInputElement>('textbox', { name: /^Field name/ }).value).toBe('title');

    await userEvent.click(screen.getByRole('button', { name: 'Add a field' }));
    const added = screen.getByRole('group', { name: 'Field 3: field_3' });
    await fill(within(added).getByRole('textbox', { name: 'Label' }), 'Heading Text');
    const field = screen.getByRole('group', { name: 'Field 3: heading_text' });
    const name = within(field).getByRole<HTMLInputElement>('textbox', { name: /^Field name/ });
    expect(name.value).toBe('heading_text');
    await fill(within(field).getByRole('textbox', { name: 'Label' }), 'Prix (€) 2ème');
    expect(name.value).toBe('prix_2eme');
    // Typed by hand, the name is the author's: the label no longer moves it.
    await fill(name, 'price');
    await fill(
      within(screen.getByRole('group', { name: 'Field 3: price' })).getByRole('textbox', { name: 'Label' }),
      'Cost',
    );
    expect(name.value).toBe('price');
  });
});

describe('editing a block', { timeout: 60_000 }, () => {
  it('keeps the visual editor and the JSON view of the fields in sync', async () => {
    const fake = service();
    renderApp('/blocks/7/edit', fake.api);
    await screen.findByRole('group', { name: 'Field 2: subtitle' });
    await userEvent.click(screen.getByRole('button', { name: 'Move subtitle up' }));
    expect(screen.getByRole('group', { name: 'Field 1: subtitle' })).toBeTruthy();

    await userEvent.click(screen.getByRole('tab', { name: 'JSON' }));
    const json = screen.getByRole('textbox', { name: 'Fields as JSON' });
    expect(JSON.parse(json.textContent).map((f: { name: string }) => f.name)).toEqual(['subtitle', 'title']);

    setCode('Fields as JSON', '[{"name": "subtitle", "type": "text"}, {"name": "heading", "type": "string"');
    expect(await screen.findByText(/This is not valid JSON/)).toBeTruthy();
    setCode('Fields as JSON', '[{"name": "subtitle", "type": "text"}, {"name": "heading", "type": "string"}]');
    await waitFor(() => expect(screen.queryByText(/This is not valid JSON/)).toBeNull());
    await userEvent.click(screen.getByRole('tab', { name: 'Visual editor' }));
    expect(screen.getByRole('group', { name: 'Field 2: heading' })).toBeTruthy();
  });

  it('asks where the values of removed and renamed fields go, and saves the migrations made of the answers', async () => {
    const fake = service();
    const impact = {
      to: { major: 2, minor: 0 },
      instances: 3,
      behind: 3,
      behind_major: 3,
      would_not_validate: 0,
      reasons: [],
    };
    fake.on('PUT /api/blocks/{id}', (request) => {
      const migrations = (request.body as { migrations?: Array<{ to?: string }> }).migrations;
      // Two fields sent to one: the service refuses the second step at its path.
      if (migrations?.filter((m) => m.to === 'heading').length === 2)
        return [
          422,
          {
            error: 'Invalid migrations',
            errors: [
              { path: 'migrations[1].to', message: 'migrations[0] already writes heading: one step per value.' },
            ],
          },
        ];
      return [
        200,
        {
          block: block({ version: { major: 2, minor: 0 } }),
          version_bump: 'major',
          removed_fields: ['title', 'subtitle'],
          upgrade_impact: impact,
          migration_impact: {
            holding: [
              { field: 'title', instances: 3 },
              { field: 'subtitle', instances: 2 },
            ],
            migratable: migrations ? 3 : 0,
            blocked: migrations ? 1 : 0,
            reasons: migrations ? [{ field: 'heading', code: 'too_long', instances: 1, message: 'Too long.' }] : [],
          },
        },
      ];
    });
    const { router } = renderApp('/blocks/7/edit', fake.api);
    const title = await screen.findByRole('group', { name: 'Field 1: title' });
    const name = within(title).getByRole('textbox', { name: /^Field name/ });
    await fill(name, 'heading');
    await userEvent.click(screen.getByRole('button', { name: 'Remove subtitle' }));
    await fill(screen.getByRole('textbox', { name: /What changed/ }), 'Renamed the title');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    const dialog = await screen.findByRole('dialog', { name: 'Fields removed' });
    // The field renamed in the editor goes to its new name; the removed one waits for an answer.
    const titleRow = within(dialog).getByRole('group', { name: 'Removed field title' });
    expect(titleRow.textContent).toContain('3 instances hold a value in it.');
    expect(titleRow.textContent).toContain('title is now heading.');
    const subtitleRow = within(dialog).getByRole('group', { name: 'Removed field subtitle' });
    expect(subtitleRow.textContent).toContain('2 instances hold a value in it.');
    const confirm = within(dialog).getByRole('button', { name: 'Save as version 2.0' });
    expect(confirm.hasAttribute('disabled')).toBe(true);
    expect(within(dialog).getByRole('status').textContent).toContain('Choose what happens');

    // Sent to the same field: the refusal is shown at the subtitle's row.
    await userEvent.click(within(subtitleRow).getByRole('radio', { name: 'Its values go to another field' }));
    await waitFor(() => expect(subtitleRow.textContent).toContain('already writes heading'));
    expect(confirm.hasAttribute('disabled')).toBe(true);

    await userEvent.click(within(subtitleRow).getByRole('radio', { name: 'Drop its values' }));
    await waitFor(() => expect(within(dialog).getByRole('status').textContent).toContain('2 of your 3 instances'));
    expect(subtitleRow.textContent).not.toContain('already writes');
    expect(within(dialog).getByRole('list', { name: 'Why some instances could not move' }).textContent).toContain(
      'heading: Too long. (1 instance)',
    );
    await waitFor(() => expect(confirm.hasAttribute('disabled')).toBe(false));
    await userEvent.click(confirm);

    await waitFor(() => expect(router.state.location.pathname).toBe('/blocks/7'));
    const saves = fake.calls.filter((c) => c.method === 'PUT' && c.query.get('dry_run') === null);
    expect(saves).toHaveLength(1);
    expect(saves[0]!.body).toMatchObject({
      changelog: 'Renamed the title',
      schema_content: [{ name: 'heading', type: 'string', required: true, label: 'Title' }],
      migrations: [
        { op: 'rename', from: 'title', to: 'heading' },
        { op: 'drop', from: 'subtitle' },
      ],
    });
    expect(await screen.findByText(/Saved as a major change/)).toBeTruthy();
    expect(screen.getByText('Version 2.0.')).toBeTruthy();
  });

  it('saves a minor change at once and shows the bump', async () => {
    const fake = service();
    fake.on('PUT /api/blocks/{id}', (request) => [
      200,
      {
        block: block({ version: { major: 1, minor: request.query.get('dry_run') ? 2 : 3 } }),
        version_bump: 'minor',
        removed_fields: [],
      },
    ]);
    const { router } = renderApp('/blocks/7/edit', fake.api);
    await screen.findByRole('group', { name: 'Field 1: title' });
    setCode('CSS', 'h1 { color: blue; }');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/blocks/7'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fake.calls.filter((c) => c.method === 'PUT').map((c) => c.query.get('dry_run'))).toEqual(['1', null]);
    expect(bodyOf(fake, 'PUT', '/api/blocks/7')[1]).toMatchObject({ css: 'h1 { color: blue; }' });
    expect(await screen.findByText(/Saved as a minor change/)).toBeTruthy();
    expect(screen.getByText('Version 1.3.')).toBeTruthy();
  });

  it('shows a refusal of the dry run at its field, and saves nothing', async () => {
    const fake = service();
    fake.on('PUT /api/blocks/{id}', () => [
      400,
      { error: 'Invalid body', errors: [{ path: 'name', message: 'This value should not be blank.' }] },
    ]);
    renderApp('/blocks/7/edit', fake.api);
    const name = await screen.findByRole('textbox', { name: 'Block name' });
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(screen.getByText('This value should not be blank.')).toBeTruthy();
    expect(fake.calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
  });

  it('does not offer a global block for editing', async () => {
    const fake = service();
    fake.on('GET /api/blocks/{id}', () => [200, block({ scope: 'global' })]);
    renderApp('/blocks/7/edit', fake.api);
    expect((await screen.findByRole('alert')).textContent).toContain('Fork it');
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
  });
});

describe('unsaved changes in the block editor', { timeout: 60_000 }, () => {
  const unload = () => {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  };

  it('asks before leaving for another screen, and the browser asks before unloading', async () => {
    const { router } = renderApp('/blocks/7/edit', service().api);
    const name = await screen.findByRole('textbox', { name: 'Block name' });
    expect(unload()).toBe(false);
    await act(() => router.navigate('/blocks'));
    // Nothing changed yet: it leaves without asking.
    await waitFor(() => expect(router.state.location.pathname).toBe('/blocks'));
    await act(() => router.navigate('/blocks/7/edit'));

    await userEvent.type(await screen.findByRole('textbox', { name: 'Block name' }), ' two');
    expect(name.isConnected).toBe(false);
    await waitFor(() => expect(unload()).toBe(true));
    await userEvent.click(screen.getByRole('link', { name: 'Cancel' }));
    let ask = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Stay and keep editing' }));
    expect(router.state.location.pathname).toBe('/blocks/7/edit');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Block name' }).value).toBe('My hero two');

    await act(() => router.navigate('/pages'));
    ask = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Leave without saving' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pages'));
    await waitFor(() => expect(unload()).toBe(false));
  });

  it('a change typed back to what was saved is no change', async () => {
    const { router } = renderApp('/blocks/7/edit', service().api);
    const name = await screen.findByRole('textbox', { name: 'Block name' });
    await userEvent.type(name, 'x');
    await waitFor(() => expect(unload()).toBe(true));
    await userEvent.type(name, '{Backspace}');
    await waitFor(() => expect(unload()).toBe(false));
    await act(() => router.navigate('/blocks'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/blocks'));
  });

  it('leaves for the block’s page without asking once the changes are saved', async () => {
    const fake = service();
    fake.on('PUT /api/blocks/{id}', () => [200, { block: block(), version_bump: 'none', removed_fields: [] }]);
    const { router } = renderApp('/blocks/7/edit', fake.api);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Block name' }), ' two');
    await waitFor(() => expect(unload()).toBe(true));
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/blocks/7'));
    expect(screen.queryByRole('dialog', { name: 'Leave without saving?' })).toBeNull();
    expect(unload()).toBe(false);
  });
});

describe('a block of your own on its page', () => {
  it('shows the revision history with the bump of each revision', async () => {
    renderApp('/blocks/7', service().api);
    const history = (await screen.findByRole('heading', { name: 'Revision history' })).closest('section')!;
    const newest = (await within(history).findByRole('rowheader', { name: '1.2' })).closest('tr')!;
    expect(newest.textContent).toContain('Minor');
    expect(newest.textContent).toContain('Subtitle');
    expect(within(history).getByRole('rowheader', { name: '1.0' }).closest('tr')!.textContent).toContain('First');
    expect(screen.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe('/blocks/7/edit');
  });

  it('uploads a cover as soon as it is chosen with the one button, and shows it', async () => {
    const fake = service();
    fake.on('POST /api/blocks/{id}/cover', () => [
      200,
      { block: block({ cover_url: '/uploads/covers/a.png' }), url: '/uploads/covers/a.png' },
    ]);
    renderApp('/blocks/7', fake.api);
    const button = await screen.findByRole('button', { name: 'Upload cover' });
    // The button is never disabled: it is what opens the file chooser.
    expect(button.hasAttribute('disabled')).toBe(false);
    expect(button.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(button.getAttribute('aria-describedby')!)!.textContent).toContain('at most 5 MB');
    const input = button.closest('section')!.querySelector<HTMLInputElement>('input[type=file]')!;
    let opened = 0;
    input.addEventListener('click', () => opened++);
    await userEvent.click(button);
    expect(opened).toBe(1);
    expect(input.accept).toBe('image/jpeg,image/png,image/gif,image/webp');
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'cover.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [file] } });
    expect((await screen.findByRole<HTMLImageElement>('img', { name: 'Cover of My hero' })).getAttribute('src')).toBe(
      '/uploads/covers/a.png',
    );
    const upload = fake.calls.find((c) => c.method === 'POST' && c.path === '/api/blocks/7/cover')!;
    expect(upload.body).toMatch(/name="file"; filename="cover.png"/);
    expect(await screen.findByRole('button', { name: 'Replace cover' })).toBeTruthy();
  });

  it('shows a refused cover next to the button, and keeps no picture', async () => {
    const fake = service();
    fake.on('POST /api/blocks/{id}/cover', () => [
      400,
      {
        error: 'Only JPEG, PNG, GIF or WebP images.',
        errors: [{ path: 'file', message: 'Only JPEG, PNG, GIF or WebP images.' }],
      },
    ]);
    renderApp('/blocks/7', fake.api);
    const section = (await screen.findByRole('heading', { name: 'Cover' })).closest('section')!;
    fireEvent.change(section.querySelector('input[type=file]')!, {
      target: { files: [new File(['x'], 'a.txt', { type: 'image/png' })] },
    });
    const alert = await within(section).findByRole('alert');
    expect(alert.textContent).toContain('Only JPEG, PNG, GIF or WebP images.');
    expect(within(section).queryByRole('img')).toBeNull();
  });

  it('deletes an own block after a confirmation that names it, and returns to the library', async () => {
    const fake = service();
    fake.on('DELETE /api/blocks/{id}', () => [204]);
    fake.on('GET /api/blocks', () => [200, page([])]);
    const { router } = renderApp('/blocks/7', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this block?' });
    expect(dialog.textContent).toContain('“My hero” is deleted with all its revisions');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.some((c) => c.method === 'DELETE')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete this block?' })).getByRole('button', {
        name: 'Delete block',
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/blocks'));
    expect(fake.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/blocks/7']);
    expect((await screen.findByRole('status')).textContent).toContain('“My hero” is deleted.');
  });

  it('says in words which pages still use the block when the service refuses (409), and keeps it', async () => {
    const fake = service();
    fake.on('DELETE /api/blocks/{id}', () => [
      409,
      { error: 'Block 7 is used on pages: remove its instances first (GET /blocks/7/usages).' },
    ]);
    const usage = (id: number, pageId: number, name: string) => ({
      id,
      page_id: pageId,
      page_name: name,
      version: { major: 1, minor: 2 },
      update_status: 'up_to_date',
    });
    fake.on('GET /api/blocks/{id}/usages', () => [
      200,
      {
        ...page([usage(1, 12, 'Front page'), usage(2, 12, 'Front page'), usage(3, 14, 'About us')]),
        outdated_total: 0,
      },
    ]);
    const { router } = renderApp('/blocks/7', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this block?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete block' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('The block is still used on pages');
    expect(alert.textContent).toContain('remove “My hero” from it, then delete the block again');
    // Not the API's sentence: a person is told what to do, not which endpoint to call.
    expect(alert.textContent).not.toContain('GET /blocks');
    const pages = await within(alert).findByRole('list', { name: 'Pages that use the block' });
    expect(
      within(pages)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Front page', '/pages/12'],
      ['About us', '/pages/14'],
    ]);
    expect(router.state.location.pathname).toBe('/blocks/7');
  });

  it('offers no Delete for a global block', async () => {
    const fake = service();
    fake.on('GET /api/blocks/{id}', () => [200, block({ scope: 'global' })]);
    renderApp('/blocks/7', fake.api);
    await screen.findByRole('heading', { level: 1, name: 'My hero' });
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('submits to the global catalog and shows the pending state', async () => {
    const fake = service();
    let submitted = false;
    const submission = {
      id: 4,
      block_id: 7,
      status: 'pending',
      reason: null,
      approved_block_id: null,
      created_at: '2026-01-03T10:00:00.000Z',
      decided_at: null,
    };
    fake.on('GET /api/block-submissions', () => [200, page(submitted ? [submission] : [])]);
    fake.on('POST /api/blocks/{id}/submit', () => {
      submitted = true;
      return [201, submission];
    });
    renderApp('/blocks/7', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Submit to the global catalog' }));
    const status = await screen.findByRole('status', { name: 'Submission status' });
    expect(status.textContent).toContain('Pending review');
    expect(screen.queryByRole('button', { name: /Submit/ })).toBeNull();
  });

  it('shows a rejection with its reason, and a refused submission', async () => {
    const fake = service();
    fake.on('GET /api/block-submissions', () => [
      200,
      page([
        {
          id: 3,
          block_id: 7,
          status: 'rejected',
          reason: 'Too close to the global Hero',
          approved_block_id: null,
          created_at: '2026-01-03T10:00:00.000Z',
          decided_at: '2026-01-04T10:00:00.000Z',
        },
        {
          id: 5,
          block_id: 8,
          status: 'approved',
          reason: null,
          approved_block_id: 30,
          created_at: '2026-01-05T10:00:00.000Z',
          decided_at: null,
        },
      ]),
    ]);
    fake.on('POST /api/blocks/{id}/submit', () => [409, { error: 'A submission of this block is already pending.' }]);
    renderApp('/blocks/7', fake.api);
    const status = await screen.findByRole('status', { name: 'Submission status' });
    expect(status.textContent).toContain('Rejected');
    expect(status.textContent).toContain('Reason: Too close to the global Hero');
    await userEvent.click(screen.getByRole('button', { name: 'Submit again' }));
    expect(
      (await screen.findByText('A submission of this block is already pending.')).closest('[role=alert]'),
    ).toBeTruthy();
  });
});
