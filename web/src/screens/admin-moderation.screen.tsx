import { Alert, Anchor, Badge, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { unwrap, useApi } from '../api/client';
import { errorMessage } from '../api/errors';
import { ResponsiveTable } from '../shell/responsive-table';
import { formatDateTime } from '../format';
import { ChangedBadge } from './admin-moderation/changed-note';
import { blockTitle, STATUS, submissionsKey, type Status } from './admin-moderation/submission-types';
import { DocumentTitle } from '../shell/document-title';

/**
 * Administrators: the submissions of private blocks to the global catalog.
 * Each is reviewed on its own screen (its content and a preview) before it is
 * approved or rejected: no decision is taken blind from the list.
 */
export function AdminModerationScreen() {
  const api = useApi();
  const [status, setStatus] = useState<Status | 'all'>('pending');
  const submissions = useQuery({
    queryKey: [...submissionsKey, 'list', status],
    queryFn: () =>
      unwrap(
        api.GET('/api/admin/block-submissions', {
          params: { query: { limit: 200, offset: 0, ...(status === 'all' ? {} : { status }) } },
        }),
      ),
  });

  return (
    <Stack maw={960}>
      <DocumentTitle title={'Moderation queue'} />
      <Title order={1}>Moderation queue</Title>
      <Text>
        Users submit their own blocks to the global catalog. Review one to see what was submitted and a preview of it;
        approving makes a global copy of exactly that, which everyone can use; rejecting sends the reason back to the
        author.
      </Text>
      <Select
        label="Show"
        data={[
          { value: 'pending', label: 'Pending' },
          { value: 'approved', label: 'Approved' },
          { value: 'rejected', label: 'Rejected' },
          { value: 'all', label: 'All' },
        ]}
        value={status}
        onChange={(value) => setStatus(value ?? 'pending')}
        allowDeselect={false}
        maw={240}
      />
      {submissions.isPending ? (
        <Text c="dimmed">Loading…</Text>
      ) : submissions.isError ? (
        <Alert color="red" title="Cannot load the submissions" role="alert">
          {errorMessage(submissions.error)}
        </Alert>
      ) : submissions.data.data.length === 0 ? (
        <Text>{status === 'pending' ? 'Nothing waits for a decision.' : 'No submissions here.'}</Text>
      ) : (
        <ResponsiveTable
          label="Submissions"
          rows={submissions.data.data}
          rowKey={(s) => s.id}
          columns={[
            {
              header: 'Block',
              cell: (s) => (
                <Group gap="xs" component="span">
                  <span>{blockTitle(s)}</span>
                  {s.changed_since_submitted && <ChangedBadge />}
                </Group>
              ),
            },
            { header: 'Author', cell: (s) => s.author.email },
            {
              header: 'Status',
              cell: (s) => (
                <Badge color={STATUS[s.status].color} variant="outline">
                  {STATUS[s.status].label}
                </Badge>
              ),
            },
            { header: 'Submitted', cell: (s) => formatDateTime(s.created_at), nowrap: true },
          ]}
          actions={(s) => (
            <Anchor
              component={Link}
              to={`/admin/moderation/${s.id}`}
              aria-label={`Review ${blockTitle(s)} by ${s.author.email}`}
            >
              {s.status === 'pending' ? 'Review' : 'View'}
            </Anchor>
          )}
        />
      )}
    </Stack>
  );
}
