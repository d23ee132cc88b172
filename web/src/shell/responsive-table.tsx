import { Group, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** Cells that must not wrap at desktop widths (dates). */
  nowrap?: boolean;
}

/**
 * Rows of data as a table at desktop widths and, at 390 px, as a list of
 * cards (the first column as each card's title, the others as "Header:
 * value" lines), so that nothing scrolls sideways. The first column is the
 * row header in the table. `actions` (buttons naming their row) end each
 * row, or each card.
 */
export function ResponsiveTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  actions,
}: {
  /** Names the table, or the list at narrow widths. */
  label: string;
  columns: [Column<Row>, ...Column<Row>[]];
  rows: Row[];
  rowKey: (row: Row) => string | number;
  actions?: (row: Row) => ReactNode;
}) {
  const narrow = useMediaQuery('(max-width: 48em)');
  const [first, ...rest] = columns;
  if (narrow)
    return (
      <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={label}>
        {rows.map((row) => (
          <Paper component="li" withBorder p="sm" key={rowKey(row)}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {first.cell(row)}
            </Text>
            <Stack component="dl" gap={2} m={0} mt={4}>
              {rest.map((column) => (
                <Text component="div" size="sm" key={column.header} style={{ overflowWrap: 'anywhere' }}>
                  <Text component="dt" fw={500} size="sm" display="inline">
                    {column.header}:
                  </Text>{' '}
                  <Text component="dd" size="sm" display="inline" m={0}>
                    {column.cell(row)}
                  </Text>
                </Text>
              ))}
            </Stack>
            {actions && (
              <Group gap="xs" mt="xs">
                {actions(row)}
              </Group>
            )}
          </Paper>
        ))}
      </Stack>
    );
  return (
    <Table striped aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((column) => (
            <Table.Th scope="col" key={column.header}>
              {column.header}
            </Table.Th>
          ))}
          {actions && (
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          )}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={rowKey(row)}>
            <Table.Th scope="row" fw={500}>
              {first.cell(row)}
            </Table.Th>
            {rest.map((column) => (
              <Table.Td key={column.header} style={column.nowrap ? { whiteSpace: 'nowrap' } : undefined}>
                {column.cell(row)}
              </Table.Td>
            ))}
            {actions && (
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  {actions(row)}
                </Group>
              </Table.Td>
            )}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
