import { Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap, useApi } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { formatDateTime } from '../../format';

const STATUS = {
  pending: { label: 'Pending review', color: 'dark' },
  approved: { label: 'Approved', color: 'green.9' },
  rejected: { label: 'Rejected', color: 'red.9' },
} as const;

/**
 * Submitting a private block to the global catalog, and the state of its
 * latest submission. The service lists a user's submissions, not one block's,
 * so the newest for this block is picked from the list.
 */
export function Submission({ blockId, hasRevision }: { blockId: number; hasRevision: boolean }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const submissions = useQuery({
    queryKey: ['block-submissions'],
    queryFn: () => unwrap(api.GET('/api/block-submissions', { params: { query: { limit: 200, offset: 0 } } })),
  });
  const submit = useMutation({
    mutationFn: () => unwrap(api.POST('/api/blocks/{id}/submit', { params: { path: { id: blockId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['block-submissions'] }),
  });
  const latest = submissions.data?.data
    .filter((s) => s.block_id === blockId)
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id)[0];
  const status = latest ? STATUS[latest.status] : undefined;

  return (
    <section aria-labelledby="submission-title">
      <Title order={2} size="h3" id="submission-title" mb="xs">
        Global catalog
      </Title>
      <Stack gap="xs">
        {submissions.isError ? (
          <Alert color="red" role="alert">
            {errorMessage(submissions.error)}
          </Alert>
        ) : latest && status ? (
          <Stack gap={4} role="status" aria-label="Submission status">
            <Group gap="xs">
              <Text size="sm">Submitted {formatDateTime(latest.created_at)}:</Text>
              <Badge color={status.color} variant="outline">
                {status.label}
              </Badge>
            </Group>
            {latest.status === 'rejected' && latest.reason && <Text size="sm">Reason: {latest.reason}</Text>}
            {latest.status === 'approved' && latest.approved_block_id !== null && (
              <Text size="sm">
                Its global copy:{' '}
                <Link to={`/blocks/${latest.approved_block_id}`}>block {latest.approved_block_id}</Link>
              </Text>
            )}
          </Stack>
        ) : (
          <Text size="sm">
            Offer this block to everyone: an administrator reviews it, and on approval a global copy is made. Your block
            stays yours.
          </Text>
        )}
        {latest?.status !== 'pending' && (
          <Group>
            <Button
              variant="light"
              loading={submit.isPending}
              disabled={!hasRevision || submissions.isPending}
              onClick={() => submit.mutate()}
            >
              {latest ? 'Submit again' : 'Submit to the global catalog'}
            </Button>
            {!hasRevision && <Text size="sm">Give it a template or fields first.</Text>}
          </Group>
        )}
        {submit.isError && (
          <Alert color="red" role="alert">
            {errorMessage(submit.error)}
          </Alert>
        )}
      </Stack>
    </section>
  );
}
