import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { dropMove, reparentMove, stepMove, treeRows } from '../src/screens/page-editor/nesting';
import { fakeApi, page, pageBody, pageInstance, user } from './fake-api';
import { renderApp } from './render';
import { noProvider, unpublished } from './publication';
import { htmlShownIn } from '../src/screens/sandboxed-html';

const at = '2026-01-01T10:00:00.000Z';
const instance = (id: number, blockId: number, name: string) => pageInstance({ id, block: { id: blockId, name } });
const libraryBlock = (id: number, name: string) => ({
  id,
  name,
  description: `${name} block`,
  docs: '',
  block_type: 'schema',
  kind: 'content',
  scope: 'global',
  tags: [],
  version: { major: 1, minor: 0 },
  current_revision: null,
  is_favorite: false,
  is_deprecated: false,
  fork_count: 0,
  forked_from_id: null,
  cover_url: null,
  created_at: at,
  updated_at: at,
});

/** A service holding one page (id 5) whose blocks change as the editor asks. */
function service() {
  let blocks = [instance(9, 3, 'Hero'), instance(10, 4, 'Text')];
  let renders = 0;
  const current = () => pageBody({ blocks: blocks.map((b, i) => ({ ...b, order_index: i })) });
  const fake = fakeApi({
    'GET /api/auth/me': () => [200, { user: user() }],
    'GET /api/pages/{id}/publication': () => [200, unpublished],
    'GET /api/sites/{id}/provider': () => [200, noProvider],
    'GET /api/pages/{id}': () => [200, current()],
    'POST /api/pages/{id}/preview': () => [200, `<p>render ${++renders}</p>`, { 'content-type': 'text/html' }],
    'GET /api/blocks': ({ query }) => {
      const all = [libraryBlock(3, 'Hero'), libraryBlock(4, 'Text'), libraryBlock(6, 'Gallery')];
      const search = query.get('search')?.toLowerCase();
      return [200, page(search ? all.filter((b) => b.name.toLowerCase().includes(search)) : all)];
    },
    'GET /api/blocks/{id}/placeholder-schema': ({ params }) => [
      200,
      {
        block_id: Number(params.id),
        version: { major: 1, minor: 0 },
        schema: { type: 'object', properties: { title: { type: 'string', default: 'Welcome' } } },
        example: { title: 'Welcome' },
        binding_slots: [],
      },
    ],
    'POST /api/pages/{pageId}/blocks': ({ body }) => {
      const id = (body as { blocks: { block_id: number }[] }).blocks[0]!.block_id;
      blocks = [...blocks, instance(20, id, id === 6 ? 'Gallery' : 'Other')];
      return [201, current()];
    },
    'DELETE /api/pages/{pageId}/blocks/{pbId}': ({ params }) => {
      blocks = blocks.filter((b) => b.id !== Number(params.pbId));
      return [204];
    },
    'PUT /api/pages/{pageId}/blocks/{pbId}/move': ({ params, body }) => {
      const from = blocks.findIndex((b) => b.id === Number(params.pbId));
      const [moved] = blocks.splice(from, 1);
      blocks.splice((body as { position: number }).position, 0, moved!);
      return [200, current()];
    },
  });
  return fake;
}

/** The blocks' cards in the Blocks tab: each one's name (its link), with "inside X" for a layout's child. */
const names = () =>
  within(screen.getByRole('list', { name: 'Blocks on the page' }))
    .getAllByRole('listitem')
    .map((card) => {
      const name = within(card).getAllByRole('link')[0]!.textContent;
      const inside = within(card).queryByText(/^inside /)?.textContent;
      return inside ? `${name} ${inside}` : name;
    });
const card = (name: string | RegExp) => screen.findByRole('link', { name });

describe('page editor: blocks', () => {
  it('adds a block found in the library panel, and the preview reloads', async () => {
    const fake = service();
    renderApp('/pages/5', fake.api);
    await card('Hero');
    const frame = await screen.findByTitle('Page preview');
    expect(htmlShownIn(frame)).toBe('<p>render 1</p>');
    await userEvent.click(screen.getByRole('button', { name: 'Add a block' }));
    const panel = await screen.findByRole('dialog', { name: 'Add a block' });
    await userEvent.type(within(panel).getByRole('textbox', { name: /search blocks/i }), 'gal');
    await waitFor(() => expect(within(panel).queryByRole('button', { name: 'Add Hero' })).toBeNull());
    expect(fake.calls.some((c) => c.path === '/api/blocks' && c.query.get('search') === 'gal')).toBe(true);
    await userEvent.click(within(panel).getByRole('button', { name: 'Add Gallery' }));
    await waitFor(() => expect(names()).toEqual(['Hero', 'Text', 'Gallery']));
    // The block's example (its defaults) goes with it: a required field with a default never refuses the add.
    expect(fake.calls.find((c) => c.method === 'POST' && c.path === '/api/pages/5/blocks')?.body).toEqual({
      blocks: [{ block_id: 6, placeholder_values: { title: 'Welcome' } }],
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add a block' })).toBeNull());
    // Rendered again with the new instance.
    const previews = () => fake.calls.filter((c) => c.path === '/api/pages/5/preview');
    await waitFor(() => expect((previews().at(-1)?.body as { blocks: unknown[] }).blocks).toHaveLength(3));
    await waitFor(() => expect(htmlShownIn(frame)).toBe(`<p>render ${previews().length}</p>`));
    expect(previews().length).toBeGreaterThan(1);
  });

  it('keeps the panel open with the reason when adding is refused', async () => {
    const fake = service();
    fake.on('POST /api/pages/{pageId}/blocks', () => [403, { error: 'This block is not yours to use.' }]);
    renderApp('/pages/5', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Add a block' }));
    const panel = await screen.findByRole('dialog', { name: 'Add a block' });
    await userEvent.click(await within(panel).findByRole('button', { name: 'Add Gallery' }));
    expect((await within(panel).findByRole('alert')).textContent).toContain('This block is not yours to use.');
    expect(names()).toEqual(['Hero', 'Text']);
  });

  it('removes a block only after confirmation', async () => {
    const fake = service();
    renderApp('/pages/5', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Hero' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove this block?' });
    expect(dialog.textContent).toContain('“Hero”');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Remove Hero' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove this block?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove block' }));
    await waitFor(() => expect(names()).toEqual(['Text']));
    expect(fake.calls.find((c) => c.method === 'DELETE')?.path).toBe('/api/pages/5/blocks/9');
  });

  it('says why a removal failed and keeps the block', async () => {
    const fake = service();
    fake.on('DELETE /api/pages/{pageId}/blocks/{pbId}', () => [404, { error: 'Page block not found.' }]);
    renderApp('/pages/5', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Hero' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this block?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove block' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('Page block not found.');
    expect(names()).toEqual(['Hero', 'Text']);
  });

  it('moves a block down and up by keyboard-reachable buttons', async () => {
    const fake = service();
    renderApp('/pages/5', fake.api);
    await card('Hero');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Move Hero up' }).disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Move Text down' }).disabled).toBe(true);
    screen.getByRole('button', { name: 'Move Hero down' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(names()).toEqual(['Text', 'Hero']));
    expect(fake.calls.find((c) => c.method === 'PUT')).toMatchObject({
      path: '/api/pages/5/blocks/9/move',
      body: { position: 1 },
    });
    await waitFor(() =>
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Move Hero up' }).disabled).toBe(false),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Move Hero up' }));
    await waitFor(() => expect(names()).toEqual(['Hero', 'Text']));
  });

  it('returns to the service order and says why when a move is refused', async () => {
    const fake = service();
    fake.on('PUT /api/pages/{pageId}/blocks/{pbId}/move', () => [
      400,
      {
        error: 'position must be within 0..1.',
        errors: [{ path: 'position', message: 'position must be within 0..1.' }],
      },
    ]);
    renderApp('/pages/5', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Move Hero down' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Could not move the block');
    await waitFor(() => expect(names()).toEqual(['Hero', 'Text']));
  });
});

describe('page editor: preview of the order', () => {
  it('renders a move before the service has saved it, with each instance’s parent', async () => {
    const fake = service();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    fake.on('PUT /api/pages/{pageId}/blocks/{pbId}/move', async () => {
      await held;
      return [400, { error: 'not saved' }];
    });
    fake.on('POST /api/pages/{id}/preview', ({ body }) => [
      200,
      `<pre>${JSON.stringify(body)}</pre>`,
      { 'content-type': 'text/html' },
    ]);
    renderApp('/pages/5', fake.api);
    const frame = await screen.findByTitle('Page preview');
    const order = () =>
      (JSON.parse(/<pre>(.*)<\/pre>/.exec(htmlShownIn(frame) ?? '')![1]!) as { blocks: { id: number }[] }).blocks;
    await waitFor(() =>
      expect(order()).toEqual([
        { id: 9, parent_page_block_id: null },
        { id: 10, parent_page_block_id: null },
      ]),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Move Hero down' }));
    await waitFor(() => expect(order().map((b) => b.id)).toEqual([10, 9]), { timeout: 5000 });
    release();
    // Refused: the service's order comes back, and the preview with it.
    await waitFor(() => expect(order().map((b) => b.id)).toEqual([9, 10]), { timeout: 5000 });
  });
});

describe('page editor: layouts', () => {
  it('puts a block into a layout and back out with the Place in control, and adds inside a layout', async () => {
    const fake = service();
    fake.on('GET /api/pages/{id}', () => [
      200,
      pageBody({
        blocks: [
          { ...instance(9, 3, 'Hero'), order_index: 0 },
          { ...instance(11, 7, 'Columns'), block: { id: 7, name: 'Columns', kind: 'layout' }, order_index: 1 },
          { ...instance(12, 4, 'Text'), parent_page_block_id: 11, order_index: 2 },
        ],
      }),
    ]);
    fake.on('PUT /api/pages/{pageId}/blocks/{pbId}/move', () => [400, { error: 'stop here' }]);
    renderApp('/pages/5', fake.api);
    await card(/Hero/);
    expect(names()).toEqual(['Hero', 'Columns', 'Text inside Columns']);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Place Hero in' }), '11');
    await waitFor(() =>
      expect(fake.calls.find((c) => c.method === 'PUT')).toMatchObject({
        path: '/api/pages/5/blocks/9/move',
        body: { position: 2, parent_page_block_id: 11 },
      }),
    );
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Place Text in' }), '');
    await waitFor(() =>
      expect(fake.calls.filter((c) => c.method === 'PUT')[1]?.body).toEqual({
        position: 2,
        parent_page_block_id: null,
      }),
    );
    // A layout offers no place inside itself.
    const columns = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Place Columns in' });
    expect([...columns.options].map((o) => o.value)).toEqual(['']);

    await userEvent.click(screen.getByRole('button', { name: 'Add inside Columns' }));
    const panel = await screen.findByRole('dialog', { name: 'Add a block into “Columns”' });
    await userEvent.click(await within(panel).findByRole('button', { name: 'Add Gallery' }));
    await waitFor(() =>
      expect(fake.calls.find((c) => c.method === 'POST' && c.path === '/api/pages/5/blocks')?.body).toEqual({
        blocks: [{ block_id: 6, placeholder_values: { title: 'Welcome' }, parent_page_block_id: 11 }],
      }),
    );
  });
});

describe('page editor: the same block twice', () => {
  it('names each instance apart, numbered in the list’s order, never by an internal id', async () => {
    const fake = service();
    fake.on('GET /api/pages/{id}', () => [
      200,
      pageBody({
        blocks: [
          { ...instance(9, 3, 'Hero'), order_index: 0 },
          { ...instance(11, 7, 'Columns'), block: { id: 7, name: 'Columns', kind: 'layout' }, order_index: 1 },
          { ...instance(13, 7, 'Columns'), block: { id: 7, name: 'Columns', kind: 'layout' }, order_index: 2 },
          { ...instance(12, 3, 'Hero'), order_index: 3 },
        ],
      }),
    ]);
    renderApp('/pages/5', fake.api);
    await card(/Hero 1/);
    expect(names()).toEqual(['Hero 1', 'Columns 1', 'Columns 2', 'Hero 2']);
    for (const control of ['Edit', 'Remove', 'Move', 'Drag'])
      for (const name of ['Hero 1', 'Hero 2'])
        expect(screen.getAllByRole('button', { name: new RegExp(`^${control} ${name}( up)?$`) })).toHaveLength(1);
    const place = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Place Hero 2 in' });
    expect([...place.options].map((o) => o.textContent)).toEqual(['The page', 'Columns 1', 'Columns 2']);
    expect(document.body.textContent).not.toMatch(/#\d/);
  });
});

describe('nesting', () => {
  const node = (id: number, parent: number | null = null, kind = 'content') => ({
    id,
    parent_page_block_id: parent,
    block: { kind },
  });
  // Flat order: 1, L(2), 3, 4 (in L), 5 (in L).
  const flat = [node(1), node(2, null, 'layout'), node(3), node(4, 2), node(5, 2)];

  it('shows each layout followed by its children, indented', () => {
    expect(treeRows(flat).map((r) => [r.instance.id, r.depth])).toEqual([
      [1, 0],
      [2, 0],
      [4, 1],
      [5, 1],
      [3, 0],
    ]);
  });

  it('steps among siblings only', () => {
    expect(stepMove(flat, 5, -1)).toEqual({ pbId: 5, position: 3 });
    expect(stepMove(flat, 4, -1)).toBeNull();
    expect(stepMove(flat, 3, -1)).toEqual({ pbId: 3, position: 1 });
  });

  it('goes into a layout at the end of its children, and out right after it', () => {
    expect(reparentMove(flat, 1, 2)).toEqual({ pbId: 1, position: 4, parent: 2 });
    expect(reparentMove(flat, 4, null)).toEqual({ pbId: 4, position: 4, parent: null });
    expect(reparentMove(flat, 4, 2)).toBeNull();
  });

  it('takes a dropped row’s place and parent; never drops a layout into itself', () => {
    expect(dropMove(flat, 1, { id: 5 })).toEqual({ pbId: 1, position: 4, parent: 2 });
    expect(dropMove(flat, 3, { id: 1 })).toEqual({ pbId: 3, position: 0 });
    expect(dropMove(flat, 3, { id: 2, into: true })).toEqual({ pbId: 3, position: 4, parent: 2 });
    expect(dropMove(flat, 2, { id: 2, into: true })).toBeNull();
    expect(dropMove(flat, 2, { id: 4 })).toBeNull();
    expect(dropMove(flat, 3, null)).toBeNull();
  });
});

describe('page editor: picking a block on the page', () => {
  const pick = (frame: HTMLElement, data: unknown, source: unknown = (frame as HTMLIFrameElement).contentWindow) =>
    // Dispatched as the browser does a postMessage: on the app's window, with the sender's window as its source.
    act(() => {
      window.dispatchEvent(new MessageEvent('message', { data, source: source as Window }));
    });

  it('opens the Fields tab of the block clicked on the page, and takes nothing else from the frame', async () => {
    const fake = service();
    const { router } = renderApp('/pages/5', fake.api);
    const frame = await screen.findByTitle('Page preview');
    await waitFor(() => expect(htmlShownIn(frame)).toBe('<p>render 1</p>'));
    // happy-dom loads no frame: the host page's window is stood in for, as the source its messages come from.
    const host = { postMessage: () => undefined };
    Object.defineProperty(frame, 'contentWindow', { value: host });
    // Asked marked, so that the frame finds each block.
    expect(fake.calls.find((c) => c.path === '/api/pages/5/preview')?.query.get('marks')).toBe('1');
    // Not from that frame's window, not exactly that shape, or not a block of the page: nothing happens.
    pick(frame, { pb: 'pick', block: 10 }, { postMessage: () => undefined });
    pick(frame, { pb: 'pick', block: 10 }, window);
    pick(frame, { pb: 'pick', block: 10 }, null);
    pick(frame, { pb: 'pick', block: 10, then: 'remove' });
    pick(frame, { pb: 'remove', block: 10 });
    pick(frame, { pb: 'pick', block: '10' });
    pick(frame, { pb: 'pick', block: 99 });
    pick(frame, [{ pb: 'pick', block: 10 }]);
    expect(router.state.location.search).toBe('');
    pick(frame, { pb: 'pick', block: 10 });
    await waitFor(() => expect(router.state.location.search).toBe('?tab=fields&block=10'));
    await screen.findByRole('region', { name: 'Edit “Text”' });
    expect(screen.getByRole('tab', { name: 'Fields' }).getAttribute('aria-selected')).toBe('true');
    expect(fake.calls.filter((c) => c.method !== 'GET' && c.path !== '/api/pages/5/preview')).toEqual([]);
  });

  it('keeps the place in the address: the tab and the block open again on reload', async () => {
    const fake = service();
    renderApp('/pages/5?tab=fields&block=9', fake.api);
    await screen.findByRole('region', { name: 'Edit “Hero”' });
    expect(screen.getByRole('tab', { name: 'Fields' }).getAttribute('aria-selected')).toBe('true');
  });
});
