import { Alert, Anchor, Badge, Group, Paper, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { unwrap, useApi } from '../api/client';
import { errorMessage } from '../api/errors';

const WIDTHS = { mobile: 390, tablet: 768, desktop: 1280 } as const;
type Width = keyof typeof WIDTHS;

const STATUS = {
  up_to_date: 'Up to date',
  outdated_minor: 'Minor update available',
  outdated_major: 'Major change available',
} as const;

/** A page: its blocks in order and its preview with stub data, at three widths. */
export function PageScreen() {
  const id = Number(useParams().id);
  const api = useApi();
  const [width, setWidth] = useState<Width>('desktop');
  const page = useQuery({
    queryKey: ['page', id],
    queryFn: () => unwrap(api.GET('/api/pages/{id}', { params: { path: { id }, query: { with_blocks: 1 } } })),
  });

  if (page.isPending) return <Text c="dimmed">Loading…</Text>;
  if (page.isError)
    return (
      <Alert color="red" title="Cannot open this page" role="alert">
        {errorMessage(page.error)}
      </Alert>
    );
  const blocks = page.data.blocks ?? [];
  return (
    <Stack maw={1320}>
      <Anchor component={Link} to="/pages" size="sm">
        ← Pages
      </Anchor>
      <Group gap="sm">
        <Title order={1}>{page.data.name}</Title>
        <Badge variant="light" color={page.data.is_published ? 'green' : 'gray'}>
          {page.data.is_published ? 'Published' : 'Draft'}
        </Badge>
      </Group>
      <section aria-labelledby="blocks-title">
        <Title order={2} size="h3" id="blocks-title" mb="xs">
          Blocks
        </Title>
        {blocks.length === 0 ? (
          <Text size="sm">This page has no blocks yet.</Text>
        ) : (
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">#</Table.Th>
                <Table.Th scope="col">Block</Table.Th>
                <Table.Th scope="col">Version</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {blocks.map((instance, index) => (
                <Table.Tr key={instance.id}>
                  <Table.Td>{index + 1}</Table.Td>
                  <Table.Th scope="row" fw={400}>
                    <Anchor component={Link} to={`/blocks/${instance.block.id}`}>
                      {instance.block.name}
                    </Anchor>
                  </Table.Th>
                  <Table.Td>{`${instance.version.major}.${instance.version.minor}`}</Table.Td>
                  <Table.Td>{STATUS[instance.update_status]}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </section>
      <section aria-labelledby="preview-title">
        <Group justify="space-between" mb="xs">
          <Title order={2} size="h3" id="preview-title">
            Preview
          </Title>
          <SegmentedControl
            aria-label="Preview width"
            value={width}
            onChange={(value) => setWidth(value as Width)}
            data={[
              { value: 'mobile', label: 'Mobile' },
              { value: 'tablet', label: 'Tablet' },
              { value: 'desktop', label: 'Desktop' },
            ]}
          />
        </Group>
        <Text size="sm" c="dimmed" mb="xs">
          Bound slots show sample data; nothing is fetched from the live source.
        </Text>
        {/* Sandboxed without same-origin: the blocks' JS runs but cannot reach the app or its session. */}
        <Paper withBorder style={{ overflowX: 'auto' }}>
          <iframe
            key={page.data.updated_at}
            title="Page preview"
            sandbox="allow-scripts"
            src={`/api/pages/${id}/preview`}
            style={{ width: WIDTHS[width], maxWidth: 'none', height: 640, border: 0, display: 'block' }}
          />
        </Paper>
      </section>
    </Stack>
  );
}
