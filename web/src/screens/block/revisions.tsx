import { Alert, Badge, Button, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, useApi } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { formatDateTime } from '../../format';
import { ResponsiveTable } from '../../shell/responsive-table';

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
          <ResponsiveTable
            label="Revisions"
            rows={revisions.data.data}
            rowKey={(revision) => revision.id}
            columns={[
              { header: 'Version', cell: (revision) => `${revision.version.major}.${revision.version.minor}` },
              {
                header: 'Change',
                cell: (revision) =>
                  revision.version_bump === null ? (
                    <Badge variant="outline">First</Badge>
                  ) : (
                    <Badge variant="outline" color={revision.version_bump === 'major' ? 'red.9' : 'dark'}>
                      {BUMP[revision.version_bump]}
                    </Badge>
                  ),
              },
              { header: 'What changed', cell: (revision) => revision.changelog ?? '—' },
              { header: 'Saved', cell: (revision) => formatDateTime(revision.created_at), nowrap: true },
            ]}
          />
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
