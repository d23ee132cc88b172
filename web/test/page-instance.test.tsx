import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EditorView } from '@uiw/react-codemirror';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../src/api/errors';
import { placeInstanceErrors } from '../src/screens/page-editor/server-error-schema';
import { fakeApi, pageBody, pageInstance, user } from './fake-api';
import { renderApp } from './render';
import { htmlShownIn } from '../src/screens/sandboxed-html';

const source = (id: string, title: string, properties: Record<string, unknown>) => ({
  id,
  title,
  description: '',
  params_schema: { type: 'object', properties },
  result_type: { id: 'article', title: 'Article', schema_json: {}, stub: [{ title: 'A' }, { title: 'B' }] },
});

interface Setup {
  name?: string;
  blockType?: 'schema' | 'markdown';
  values?: Record<string, unknown>;
  bindings?: Record<string, unknown> | null;
}

/** A page (id 5) with one instance (id 9) of block 3: a block with a live-data slot, or a markdown block. */
function service({ name = 'News', blockType = 'schema', values = {}, bindings = null }: Setup = {}) {
  const current = () =>
    pageBody({ blocks: [pageInstance({ block: { id: 3, name }, placeholder_values: values, bindings })] });
  const markdown = blockType === 'markdown';
  return fakeApi({
    'GET /api/auth/me': () => [200, { user: user() }],
    'GET /api/pages': () => [200, { data: [], total: 0, limit: 50, offset: 0 }],
    'GET /api/sites': () => [200, { data: [], total: 0, limit: 200, offset: 0 }],
    'GET /api/pages/{id}': () => [200, current()],
    // The page's preview, and the panel's (the page with that instance alone, its values always sent).
    'POST /api/pages/{id}/preview': ({ body }) => [
      200,
      `<pre>${JSON.stringify(body)}</pre>`,
      { 'content-type': 'text/html' },
    ],
    'GET /api/blocks/{id}/placeholder-schema': () => [
      200,
      {
        block_type: blockType,
        schema: {
          type: 'object',
          properties: {
            heading: { type: 'string', title: 'Heading' },
            ...(markdown ? { _markdown: { type: 'string', description: 'GitHub Flavored Markdown' } } : {}),
          },
          ...(markdown ? { required: ['_markdown'] } : {}),
        },
        example: {},
        binding_slots: markdown
          ? []
          : [
              {
                name: 'articles',
                allowed_sources: ['articles.latest', 'articles.by_rubric'],
                default: { source: 'articles.latest', params: { limit: 3 } },
                result_type: 'article',
                sources: [
                  source('articles.latest', 'Latest articles', { limit: { type: 'integer', title: 'How many' } }),
                  source('articles.by_rubric', 'Articles of a rubric', {
                    rubric_id: { type: 'integer', title: 'Rubric' },
                    limit: { type: 'integer', title: 'How many' },
                  }),
                ],
              },
            ],
      },
    ],
    'PUT /api/pages/{pageId}/blocks/{pbId}': () => [200, current()],
  });
}

async function openEditor(fake: ReturnType<typeof service>, name = 'News') {
  const view = renderApp('/pages/5', fake.api);
  await userEvent.click(await screen.findByRole('button', { name: `Edit ${name}` }));
  const panel = await screen.findByRole('region', { name: `Edit “${name}”` });
  await within(panel).findByRole('textbox', { name: 'Heading' });
  return { panel, router: view.router };
}

const blockFrame = (panel: HTMLElement) => within(panel).getByTitle('Block preview');

describe('page editor: bindings', () => {
  it('chooses a source among the allowed ones and edits its params from its params_schema', async () => {
    const fake = service();
    const { panel } = await openEditor(fake);
    const select = within(panel).getByRole<HTMLSelectElement>('combobox', { name: /source/i });
    expect([...select.options].map((o) => o.value)).toEqual(['', 'articles.latest', 'articles.by_rubric']);
    expect(select.options[0]!.textContent).toContain('The block’s default: Latest articles');
    await userEvent.selectOptions(select, 'articles.by_rubric');
    await userEvent.type(await within(panel).findByRole('textbox', { name: 'Rubric' }), '7');
    await userEvent.type(within(panel).getByRole('textbox', { name: 'How many' }), '4');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save changes' }));
    await within(panel).findByRole('status');
    expect(fake.calls.find((c) => c.method === 'PUT')?.body).toEqual({
      placeholder_values: {},
      bindings: { articles: { source: 'articles.by_rubric', params: { rubric_id: 7, limit: 4 } } },
    });
  });

  it('puts a refusal of a param on its field and focuses it; a refused source on the source control', async () => {
    const fake = service({ bindings: { articles: { source: 'articles.latest', params: { limit: 30 } } } });
    fake.on('PUT /api/pages/{pageId}/blocks/{pbId}', () => [
      400,
      {
        error: 'Block validation failed: see errors[].',
        errors: [
          { path: 'bindings.articles.params.limit', message: 'limit must be at most 20.' },
          { path: 'bindings.articles.source', message: 'The source must be one of: articles.latest.' },
        ],
      },
    ]);
    const { panel } = await openEditor(fake);
    const limit = within(panel).getByRole<HTMLInputElement>('textbox', { name: 'How many' });
    expect(limit.value).toBe('30');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save changes' }));
    await within(panel).findByRole('textbox', { name: 'How many', description: /limit must be at most 20\./ });
    await waitFor(() => expect(document.activeElement).toBe(limit));
    const select = within(panel).getByRole('combobox', { name: /source/i });
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(within(panel).getByText('The source must be one of: articles.latest.')).toBeTruthy();
  });

  it('clears the bindings when the slot goes back to the block’s default', async () => {
    const fake = service({ bindings: { articles: { source: 'articles.latest', params: { limit: 3 } } } });
    const { panel } = await openEditor(fake);
    await userEvent.selectOptions(within(panel).getByRole('combobox', { name: /source/i }), '');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save changes' }));
    await within(panel).findByRole('status');
    expect(fake.calls.find((c) => c.method === 'PUT')?.body).toEqual({ placeholder_values: {}, bindings: null });
  });
});

describe('page editor: live preview of a block', () => {
  it('renders the unsaved values, without saving them', async () => {
    const fake = service();
    const { panel } = await openEditor(fake);
    await waitFor(() => expect(htmlShownIn(blockFrame(panel))).toContain('"placeholder_values":{}'), {
      timeout: 5000,
    });
    await userEvent.type(within(panel).getByRole('textbox', { name: 'Heading' }), 'Hi');
    await waitFor(() => expect(htmlShownIn(blockFrame(panel))).toContain('"heading":"Hi"'), {
      timeout: 5000,
    });
    expect(fake.calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('renders the instance alone on its pinned revision: the page preview with it only, not the block’s', async () => {
    const fake = service();
    const { panel } = await openEditor(fake);
    await waitFor(() =>
      expect(htmlShownIn(blockFrame(panel))).toBe(
        '<pre>{"blocks":[{"id":9,"parent_page_block_id":null,"placeholder_values":{},"bindings":null}]}</pre>',
      ),
    );
    expect(fake.calls.some((c) => c.path === '/api/blocks/3/preview')).toBe(false);
  });

  it('the page preview follows the unsaved values and bindings, and drops them when they are discarded', async () => {
    const fake = service();
    const { panel } = await openEditor(fake);
    const pageFrame = () => htmlShownIn(screen.getByTitle('Page preview'));
    await waitFor(() => expect(pageFrame()).toBe('<pre>{"blocks":[{"id":9,"parent_page_block_id":null}]}</pre>'));
    await userEvent.type(within(panel).getByRole('textbox', { name: 'Heading' }), 'Hi');
    await userEvent.selectOptions(within(panel).getByRole('combobox', { name: /source/i }), 'articles.by_rubric');
    await waitFor(() => expect(pageFrame()).toContain('"placeholder_values":{"heading":"Hi"}'), { timeout: 5000 });
    await waitFor(() => expect(pageFrame()).toContain('"bindings":{"articles":{"source":"articles.by_rubric"'));
    expect(fake.calls.some((c) => c.method === 'PUT')).toBe(false);

    await userEvent.click(within(panel).getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(pageFrame()).toBe('<pre>{"blocks":[{"id":9,"parent_page_block_id":null}]}</pre>'), {
      timeout: 5000,
    });
  });

  it('keeps the last rendering and says why when the service refuses the unsaved state', async () => {
    const fake = service();
    const { panel } = await openEditor(fake);
    await waitFor(() => expect(htmlShownIn(blockFrame(panel))).toContain('placeholder_values'));
    fake.on('POST /api/pages/{id}/preview', () => [
      400,
      {
        error: 'Block validation failed.',
        errors: [{ path: 'blocks[0].placeholder_values.heading', message: 'Too long.' }],
      },
    ]);
    await userEvent.type(within(panel).getByRole('textbox', { name: 'Heading' }), 'x');
    expect((await within(panel).findByRole('alert')).textContent).toContain('The last version that rendered');
    expect(htmlShownIn(blockFrame(panel))).toContain('placeholder_values');
  });
});

describe('page editor: markdown blocks', () => {
  // happy-dom fires selectionchange inside Selection.collapse, in the middle of CodeMirror's own update
  // (browsers queue it). The tests change the text through the editor's API, so the event is not needed.
  const dispatch = document.dispatchEvent.bind(document);
  beforeAll(() => {
    document.dispatchEvent = (event: Event) => event.type === 'selectionchange' || dispatch(event);
  });
  afterAll(() => {
    document.dispatchEvent = dispatch;
  });

  it('edits _markdown in a labelled markdown editor with a rendered preview', async () => {
    const fake = service({ name: 'Text', blockType: 'markdown', values: { _markdown: '# Welcome' } });
    const { panel } = await openEditor(fake, 'Text');
    const editor = within(panel).getByRole('textbox', { name: 'Content (markdown)' });
    expect(editor.id).toBe('root__markdown');
    const rendered = within(panel).getByRole('region', { name: 'Rendered' });
    expect(within(rendered).getByRole('heading', { name: 'Welcome' })).toBeTruthy();
    const view = EditorView.findFromDOM(editor)!;
    // Outside act(): React renders after CodeMirror's update, as in a browser.
    view.dispatch({ changes: { from: view.state.doc.length, insert: '\n\n- **bold** item' } });
    await waitFor(() => expect(within(rendered).getByText('bold').tagName).toBe('STRONG'));
    await userEvent.click(within(panel).getByRole('button', { name: 'Save changes' }));
    await within(panel).findByRole('status');
    expect(fake.calls.find((c) => c.method === 'PUT')?.body).toEqual({
      placeholder_values: { _markdown: '# Welcome\n\n- **bold** item' },
    });
  });

  it('focuses the markdown editor when the service refuses its content', async () => {
    const fake = service({ name: 'Text', blockType: 'markdown', values: { _markdown: 'x' } });
    fake.on('PUT /api/pages/{pageId}/blocks/{pbId}', () => [
      400,
      { error: 'Invalid.', errors: [{ path: 'placeholder_values._markdown', message: 'Too long.' }] },
    ]);
    const { panel } = await openEditor(fake, 'Text');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save changes' }));
    const editor = within(panel).getByRole('textbox', { name: 'Content (markdown)' });
    await waitFor(() => expect(document.activeElement).toBe(editor));
    expect(editor.getAttribute('aria-invalid')).toBe('true');
    expect(within(panel).getByRole('textbox', { name: 'Content (markdown)', description: /Too long\./ })).toBe(editor);
  });
});

describe('page editor: unsaved changes', () => {
  it('asks before another block (or none, as Back may choose) takes the place of unsaved changes', async () => {
    const fake = service();
    const { panel, router } = await openEditor(fake);
    expect(router.state.location.search).toBe('?tab=fields&block=9');
    await userEvent.type(within(panel).getByRole('textbox', { name: 'Heading' }), 'Hi');
    await act(() => router.navigate('/pages/5?tab=fields'));
    let ask = await screen.findByRole('dialog', { name: 'Discard unsaved changes?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    expect(within(panel).getByRole<HTMLInputElement>('textbox', { name: 'Heading' }).value).toBe('Hi');
    await waitFor(() => expect(router.state.location.search).toBe('?tab=fields&block=9'));
    await act(() => router.navigate('/pages/5?tab=fields'));
    ask = await screen.findByRole('dialog', { name: 'Discard unsaved changes?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Edit “News”' })).toBeNull());
    expect(fake.calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('lets another block in at once when nothing changed, and after a save', async () => {
    const fake = service();
    const { panel, router } = await openEditor(fake);
    await userEvent.type(within(panel).getByRole('textbox', { name: 'Heading' }), 'Hi');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save changes' }));
    await within(panel).findByRole('status');
    await act(() => router.navigate('/pages/5?tab=fields'));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Edit “News”' })).toBeNull());
    expect(screen.queryByRole('dialog', { name: 'Discard unsaved changes?' })).toBeNull();
  });

  it('asks before leaving the editor for another screen, and the browser asks before unloading', async () => {
    const fake = service();
    const { panel, router } = await openEditor(fake);
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);
    await userEvent.type(within(panel).getByRole('textbox', { name: 'Heading' }), 'Hi');
    await waitFor(() => expect(unload()).toBe(true));
    await act(() => router.navigate('/pages'));
    let ask = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Stay and keep editing' }));
    expect(router.state.location.pathname).toBe('/pages/5');
    await act(() => router.navigate('/pages'));
    ask = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Leave without saving' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pages'));
    await waitFor(() => expect(unload()).toBe(false));
  });
});

describe('placeInstanceErrors', () => {
  it('places values, sources and params by their paths and leaves the rest to the summary', () => {
    const error = new ApiError(400, {
      error: 'Invalid.',
      errors: [
        { path: 'bindings.feed.params.limit', message: 'Too many.' },
        { path: 'placeholder_values.items[0].caption', message: 'Required.' },
        { path: 'bindings.feed.source', message: 'Not allowed.' },
        { path: 'bindings.gone', message: 'No slot "gone".' },
      ],
    });
    const known = new Set(['bindings_feed_params_limit', 'root_items_0_caption', 'bindings_feed_source']);
    const placed = placeInstanceErrors(error, (id) => known.has(id));
    expect(placed.ids).toEqual(['bindings_feed_params_limit', 'root_items_0_caption', 'bindings_feed_source']);
    expect(placed.params).toEqual({ feed: { limit: { __errors: ['Too many.'] } } });
    expect(placed.values).toEqual({ items: { 0: { caption: { __errors: ['Required.'] } } } });
    expect(placed.sources).toEqual({ feed: 'Not allowed.' });
    expect(placed.summary).toEqual(['Gone: No slot "gone".']);
  });

  it('sends a path whose field is not shown to the summary', () => {
    const error = new ApiError(400, {
      error: 'Invalid.',
      errors: [{ path: 'bindings.feed.params.limit', message: 'Too many.' }],
    });
    const placed = placeInstanceErrors(error, () => false);
    expect(placed.ids).toEqual([]);
    expect(placed.summary).toEqual(['Too many.']);
  });
});
