import { Button, MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponsiveTable, type Column } from '../src/shell/responsive-table';

interface Revision {
  version: string;
  change: string;
}
const columns: [Column<Revision>, ...Column<Revision>[]] = [
  { header: 'Version', cell: (r) => r.version },
  { header: 'Change', cell: (r) => r.change },
];
const rows: Revision[] = [
  { version: '2.0', change: 'Major' },
  { version: '1.0', change: 'First' },
];

/** happy-dom evaluates media queries against its viewport. */
const setWidth = (width: number) =>
  (
    window as unknown as { happyDOM: { setViewport(size: { width: number; height: number }): void } }
  ).happyDOM.setViewport({ width, height: 800 });

function renderAt(width: number) {
  setWidth(width);
  return render(
    <MantineProvider>
      <ResponsiveTable
        label="Revisions"
        columns={columns}
        rows={rows}
        rowKey={(r) => r.version}
        actions={(r) => <Button aria-label={`Restore ${r.version}`}>Restore</Button>}
      />
    </MantineProvider>,
  );
}

afterEach(() => setWidth(1024));

describe('ResponsiveTable', () => {
  it('is a table with row headers and an actions column at desktop widths', () => {
    renderAt(1280);
    const table = screen.getByRole('table', { name: 'Revisions' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Version', 'Change', 'Actions']);
    const row = within(table).getByRole('rowheader', { name: '2.0' }).closest('tr')!;
    expect(row.textContent).toContain('Major');
    expect(within(row).getByRole('button', { name: 'Restore 2.0' })).toBeTruthy();
  });

  it('is a list of cards at 390 px: the first column titles each card, the others are labelled lines', () => {
    renderAt(390);
    expect(screen.queryByRole('table')).toBeNull();
    const items = within(screen.getByRole('list', { name: 'Revisions' })).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('2.0');
    expect(within(items[0]!).getByRole('term').textContent).toBe('Change:');
    expect(within(items[0]!).getByRole('definition').textContent).toBe('Major');
    expect(within(items[1]!).getByRole('button', { name: 'Restore 1.0' })).toBeTruthy();
  });
});
