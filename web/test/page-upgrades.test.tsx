import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { keptValues, lostValues } from '../src/screens/page-editor/removed-values';
import { fakeApi, pageBody, pageInstance, user } from './fake-api';
import { renderApp } from './render';
import { noProvider, unpublished } from './publication';

type Status = 'up_to_date' | 'outdated_minor' | 'outdated_major';
interface Row {
  id: number;
  blockId: number;
  name: string;
  version: { major: number; minor: number };
  status: Status;
  values: Record<string, unknown>;
}

const pageWith = (rows: Row[]) =>
  pageBody({
    has_outdated_blocks: rows.some((r) => r.status !== 'up_to_date'),
    blocks: rows.map((r, i) =>
      pageInstance({
        id: r.id,
        block: { id: r.blockId, name: r.name },
        order_index: i,
        placeholder_values: r.values,
        version: r.version,
        update_status: r.status,
      }),
    ),
  });

const libraryVersions: Record<number, { major: number; minor: number }> = {
  3: { major: 1, minor: 2 },
  4: { major: 2, minor: 0 },
  6: { major: 1, minor: 0 },
};

/** A page with Hero (minor behind), Quote (major behind: `author` and `items[].caption` removed) and an up-to-date Text. */
function service() {
  let rows: Row[] = [
    {
      id: 9,
      blockId: 3,
      name: 'Hero',
      version: { major: 1, minor: 0 },
      status: 'outdated_minor',
      values: { title: 'Hi' },
    },
    {
      id: 10,
      blockId: 4,
      name: 'Quote',
      version: { major: 1, minor: 3 },
      status: 'outdated_major',
      values: { text: 'To be', author: 'Hamlet', items: [{ caption: 'one', n: 1 }, { n: 2 }, { caption: 'three' }] },
    },
    { id: 11, blockId: 6, name: 'Text', version: { major: 1, minor: 0 }, status: 'up_to_date', values: {} },
  ];
  const upToDate = (id: number) =>
    (rows = rows.map((r) =>
      r.id === id ? { ...r, id: id === 10 ? 12 : id, status: 'up_to_date', version: libraryVersions[r.blockId]! } : r,
    ));
  const fake = fakeApi({
    'GET /api/auth/me': () => [200, { user: user() }],
    'GET /api/pages/{id}/publication': () => [200, unpublished],
    'GET /api/sites/{id}/provider': () => [200, noProvider],
    'GET /api/pages/{id}': () => [200, pageWith(rows)],
    'POST /api/pages/{id}/preview': () => [200, '<p>page</p>', { 'content-type': 'text/html' }],
    'GET /api/blocks/{id}': ({ params }) => [
      200,
      { id: Number(params.id), name: 'x', version: libraryVersions[Number(params.id)] },
    ],
    'POST /api/pages/{pageId}/blocks/{pbId}/upgrade': ({ params, query }) => {
      if (params.pbId === '10')
        return [
          422,
          {
            error: 'major_upgrade_blocked',
            message: 'A major change: use replace.',
            current_pin: { major: 1, minor: 3 },
            library_version: { major: 2, minor: 0 },
            removed_fields: ['author', 'items[].caption'],
          },
        ];
      if (query.get('dry_run') !== '1') upToDate(Number(params.pbId));
      return [200, pageWith(rows)];
    },
    'POST /api/pages/{pageId}/blocks/upgrade-all': () => {
      upToDate(9);
      return [
        200,
        {
          upgraded: [{ id: 9, from: { major: 1, minor: 0 }, to: { major: 1, minor: 2 } }],
          skipped_major: [
            {
              id: 10,
              current_pin: { major: 1, minor: 3 },
              library_version: { major: 2, minor: 0 },
              removed_fields: ['author'],
            },
          ],
          already_up_to_date: [11],
        },
      ];
    },
    'GET /api/blocks/{id}/placeholder-schema': () => [
      200,
      {
        block_type: 'schema',
        schema: {
          type: 'object',
          required: ['text', 'source'],
          properties: {
            text: { type: 'string', title: 'Text' },
            source: { type: 'string', title: 'Source' },
            items: { type: 'array', title: 'Items', items: { type: 'object', properties: { n: { type: 'number' } } } },
          },
        },
        example: {},
        binding_slots: [],
      },
    ],
    'PUT /api/pages/{pageId}/blocks/{pbId}/replace': ({ body }) => {
      const values = (body as { placeholder_values: Record<string, unknown> }).placeholder_values;
      if (values.source === 'taken')
        return [
          400,
          {
            error: 'Block validation failed',
            errors: [{ path: 'placeholder_values.source', message: 'Not a source we know.' }],
          },
        ];
      upToDate(10);
      return [200, { id: 12, page: pageWith(rows) }];
    },
  });
  return fake;
}

const updates = () => screen.findByRole('region', { name: 'Block updates' });

describe('removed values', () => {
  const values = {
    text: 'a',
    author: { name: 'N', born: 1 },
    items: [{ caption: 'x', n: 1 }, { n: 2 }],
    grid: [[{ x: 1 }, { y: 2 }]],
  };

  it('finds the values at removed paths, at any depth, with their indexes', () => {
    expect(lostValues(values, ['author.name', 'items[].caption', 'grid[][].x', 'missing'])).toEqual([
      { path: 'author.name', value: 'N' },
      { path: 'items[0].caption', value: 'x' },
      { path: 'grid[0][0].x', value: 1 },
    ]);
  });

  it('keeps everything else, without touching the original', () => {
    expect(keptValues(values, ['author.name', 'items[].caption', 'grid[][].x'])).toEqual({
      text: 'a',
      author: { born: 1 },
      items: [{ n: 1 }, { n: 2 }],
      grid: [[{}, { y: 2 }]],
    });
    expect(values.items[0]).toEqual({ caption: 'x', n: 1 });
  });
});

describe('page editor: outdated blocks', () => {
  it('lists the outdated instances with their version and the library’s', async () => {
    renderApp('/pages/5?tab=updates', service().api);
    const region = await updates();
    const items = within(within(region).getByRole('list', { name: 'Outdated blocks' })).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    await waitFor(() => expect(items[0]!.textContent).toContain('version 1.0 on this page, 1.2 in the library'));
    expect(items[0]!.textContent).toContain('Minor change');
    await waitFor(() => expect(items[1]!.textContent).toContain('version 1.3 on this page, 2.0 in the library'));
    expect(items[1]!.textContent).toContain('Major change');
    expect(within(region).queryByText('Text')).toBeNull();
  });

  it('upgrades one minor instance, and the preview reloads', async () => {
    const fake = service();
    renderApp('/pages/5?tab=updates', fake.api);
    const region = await updates();
    const renders = () => fake.calls.filter((c) => c.path === '/api/pages/5/preview').length;
    await screen.findByTitle('Page preview');
    const before = renders();
    await userEvent.click(within(region).getByRole('button', { name: 'Upgrade Hero' }));
    await waitFor(() => expect(within(region).queryByRole('button', { name: 'Upgrade Hero' })).toBeNull());
    expect(fake.calls.some((c) => c.method === 'POST' && c.path === '/api/pages/5/blocks/9/upgrade')).toBe(true);
    await waitFor(() => expect(renders()).toBeGreaterThan(before));
  });

  it('upgrades all, and says which majors were left for a replacement', async () => {
    renderApp('/pages/5?tab=updates', service().api);
    const region = await updates();
    await userEvent.click(within(region).getByRole('button', { name: 'Upgrade all' }));
    const status = await within(region).findByRole('status');
    expect(status.textContent).toContain('1 block upgraded.');
    expect(status.textContent).toContain('major change to replace: Quote');
    await waitFor(() => expect(within(region).queryByRole('button', { name: 'Upgrade Hero' })).toBeNull());
    expect(within(region).getByRole('button', { name: 'Replace Quote…' })).toBeTruthy();
  });

  it('drops the note on a major left as it was once that block is replaced', async () => {
    renderApp('/pages/5?tab=updates', service().api);
    const region = await updates();
    await userEvent.click(within(region).getByRole('button', { name: 'Upgrade all' }));
    expect((await within(region).findByRole('status')).textContent).toContain('major change to replace: Quote');
    await userEvent.click(within(region).getByRole('button', { name: 'Replace Quote…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Replace “Quote” with its new version' });
    await userEvent.type(await within(dialog).findByRole('textbox', { name: /^Source/ }), 'Shakespeare');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replace block' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.body.textContent).not.toContain('Left as they are'));
    // No internal id stands in for a block's name anywhere.
    expect(document.body.textContent).not.toMatch(/#\d/);
  });

  it('shows the refusal of an upgrade', async () => {
    const fake = service();
    fake.on('POST /api/pages/{pageId}/blocks/upgrade-all', () => [409, { error: 'The page changed: try again.' }]);
    renderApp('/pages/5?tab=updates', fake.api);
    const region = await updates();
    await userEvent.click(within(region).getByRole('button', { name: 'Upgrade all' }));
    expect((await within(region).findByRole('alert')).textContent).toContain('The page changed: try again.');
  });
});

describe('page editor: replacing after a major change', () => {
  it('shows the removed fields and the values lost, and replaces with the new values', async () => {
    const fake = service();
    renderApp('/pages/5?tab=updates', fake.api);
    await userEvent.click(within(await updates()).getByRole('button', { name: 'Replace Quote…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Replace “Quote” with its new version' });
    const lost = await within(dialog).findByRole('table', { name: 'Values that will be lost' });
    const rows = within(lost)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(rows).toEqual(['authorHamlet', 'items[0].captionone', 'items[2].captionthree']);
    expect(within(dialog).getByText('items[].caption')).toBeTruthy();
    expect(dialog.textContent).toContain('the library has 2.0');
    // The dry run asked, without writing.
    expect(fake.calls.find((c) => c.path === '/api/pages/5/blocks/10/upgrade')?.query.get('dry_run')).toBe('1');

    const text = within(dialog).getByRole('textbox', { name: /^Text/ });
    expect((text as HTMLInputElement).value).toBe('To be');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Source/ }), 'Shakespeare');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replace block' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const put = fake.calls.find((c) => c.method === 'PUT');
    expect(put?.body).toEqual({
      block_id: 4,
      placeholder_values: { text: 'To be', source: 'Shakespeare', items: [{ n: 1 }, { n: 2 }, {}] },
    });
    const region = await updates();
    await waitFor(() => expect(within(region).queryByRole('button', { name: 'Replace Quote…' })).toBeNull());
    expect(within(region).getByRole('button', { name: 'Upgrade Hero' })).toBeTruthy();
  });

  it('puts a refusal at its field and focuses it; the instance stays', async () => {
    const fake = service();
    renderApp('/pages/5?tab=updates', fake.api);
    await userEvent.click(within(await updates()).getByRole('button', { name: 'Replace Quote…' }));
    const dialog = await screen.findByRole('dialog', { name: /Replace “Quote”/ });
    const source = await within(dialog).findByRole('textbox', { name: /^Source/ });
    await userEvent.type(source, 'taken');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replace block' }));
    await within(dialog).findByRole('textbox', { name: /^Source/, description: /Not a source we know\./ });
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('textbox', { name: /^Source/ })));
    expect(within(await updates()).getByRole('button', { name: 'Replace Quote…' })).toBeTruthy();
  });

  it('cancels without writing', async () => {
    const fake = service();
    renderApp('/pages/5?tab=updates', fake.api);
    await userEvent.click(within(await updates()).getByRole('button', { name: 'Replace Quote…' }));
    const dialog = await screen.findByRole('dialog', { name: /Replace “Quote”/ });
    await within(dialog).findByRole('table', { name: 'Values that will be lost' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.calls.some((c) => c.method === 'PUT')).toBe(false);
  });
});
