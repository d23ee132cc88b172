import { Alert, Badge, Button, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, useApi } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { formatDateTime } from '../../format';
import { scrollable } from './scrollable';

const PAGE = 20;
const BUMP = { major: 'Major', minor: 'Minor' } as const;

/** The block's revisions, newest first, with the bump each one was; more on demand. */
export function Revisions({ id }: { id: number }) {
  const api = useApi();
  const [limit, setLimit] = useState(PAGE);
  const revisions = useQuery({
    queryKey: ['block', id, 'revisions', limit],
    queryFn: () =>
      unwrap(api.GET('/api/blocks/{id}/revisions', { params: { path: { id }, query: { limit, offset: 0 } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="revisions-title">
      <Title order={2} size="h3" id="revisions-title" mb="xs">
        Revision history
      </Title>
      {revisions.isPending ? (
        <Text c="dimmed">Loading…</Text>
      ) : revisions.isError ? (
        <Alert color="red" role="alert">
          {errorMessage(revisions.error)}
        </Alert>
      ) : revisions.data.total === 0 ? (
        <Text size="sm">No revision yet: the block gets version 1.0 with its first template or field.</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={480} scrollAreaProps={scrollable('Revisions table')}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Version</Table.Th>
                  <Table.Th scope="col">Change</Table.Th>
                  <Table.Th scope="col">What changed</Table.Th>
                  <Table.Th scope="col">Saved</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {revisions.data.data.map((revision) => (
                  <Table.Tr key={revision.id}>
                    <Table.Th scope="row">{`${revision.version.major}.${revision.version.minor}`}</Table.Th>
                    <Table.Td>
                      {revision.version_bump === null ? (
                        <Badge variant="outline">First</Badge>
                      ) : (
                        <Badge variant="outline" color={revision.version_bump === 'major' ? 'red.9' : 'dark'}>
                          {BUMP[revision.version_bump]}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>{revision.changelog ?? '—'}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(revision.created_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {revisions.data.total > revisions.data.data.length && (
            <Button variant="default" mt="xs" loading={revisions.isFetching} onClick={() => setLimit((n) => n + PAGE)}>
              Show older revisions
            </Button>
          )}
        </>
      )}
    </section>
  );
}
