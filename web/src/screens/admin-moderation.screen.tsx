import { Alert, Anchor, Badge, Button, Group, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { unwrap, useApi, type paths } from '../api/client';
import { errorMessage } from '../api/errors';
import { ConfirmModal } from '../forms/confirm-modal';
import { ResponsiveTable } from '../shell/responsive-table';
import { formatDateTime } from '../format';

type Submission =
  paths['/api/admin/block-submissions']['get']['responses'][200]['content']['application/json']['data'][number];
type Status = Submission['status'];

const submissionsKey = ['admin', 'block-submissions'] as const;
const STATUS_COLOR: Record<Status, string> = { pending: 'yellow', approved: 'green', rejected: 'red' };

/** Administrators: the submissions of private blocks to the global catalog, to approve or reject with a reason. */
export function AdminModerationScreen() {
  const api = useApi();
  const [status, setStatus] = useState<Status | 'all'>('pending');
  const submissions = useQuery({
    queryKey: [...submissionsKey, status],
    queryFn: () =>
      unwrap(
        api.GET('/api/admin/block-submissions', {
          params: { query: { limit: 200, offset: 0, ...(status === 'all' ? {} : { status }) } },
        }),
      ),
  });
  const [deciding, setDeciding] = useState<{ submission: Submission; decision: 'approve' | 'reject' } | null>(null);

  return (
    <Stack maw={960}>
      <Title order={1}>Moderation queue</Title>
      <Text>
        Users submit their own blocks to the global catalog. Approving makes a global copy of the block that everyone
        can use; rejecting sends the reason back to the author.
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
            { header: 'Submission', cell: (s) => `#${s.id}, block ${s.block_id}` },
            {
              header: 'Status',
              cell: (s) => (
                <Badge color={STATUS_COLOR[s.status]} variant="light">
                  {s.status}
                </Badge>
              ),
            },
            { header: 'Submitted', cell: (s) => formatDateTime(s.created_at) },
            {
              header: 'Decision',
              cell: (s) =>
                s.status === 'pending' ? (
                  <Group gap="xs">
                    <Button
                      size="xs"
                      onClick={() => setDeciding({ submission: s, decision: 'approve' })}
                      aria-label={`Approve submission ${s.id}`}
                    >
                      Approve
                    </Button>
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      onClick={() => setDeciding({ submission: s, decision: 'reject' })}
                      aria-label={`Reject submission ${s.id}`}
                    >
                      Reject
                    </Button>
                  </Group>
                ) : s.status === 'approved' && s.approved_block_id !== null ? (
                  <Anchor component={Link} to={`/blocks/${s.approved_block_id}`}>
                    Global block {s.approved_block_id}
                  </Anchor>
                ) : (
                  <Text size="sm">{s.reason ?? '—'}</Text>
                ),
            },
          ]}
        />
      )}
      <DecisionModal deciding={deciding} onClose={() => setDeciding(null)} />
    </Stack>
  );
}

function DecisionModal({
  deciding,
  onClose,
}: {
  deciding: { submission: Submission; decision: 'approve' | 'reject' } | null;
  onClose: () => void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const decide = useMutation({
    mutationFn: ({ id, decision, reason }: { id: number; decision: 'approve' | 'reject'; reason: string }) =>
      decision === 'approve'
        ? unwrap(api.POST('/api/admin/block-submissions/{id}/approve', { params: { path: { id } } }))
        : unwrap(api.POST('/api/admin/block-submissions/{id}/reject', { params: { path: { id } }, body: { reason } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: submissionsKey });
      close();
    },
  });
  const close = () => {
    decide.reset();
    setReason('');
    setReasonError(null);
    onClose();
  };
  const approve = deciding?.decision === 'approve';
  return (
    <ConfirmModal
      opened={deciding !== null}
      title={approve ? 'Approve this submission?' : 'Reject this submission?'}
      confirmLabel={approve ? 'Approve' : 'Reject'}
      danger={!approve}
      onConfirm={() => {
        if (!deciding) return;
        if (!approve && !reason.trim()) return setReasonError('Give the author a reason.');
        setReasonError(null);
        decide.mutate({ id: deciding.submission.id, decision: deciding.decision, reason: reason.trim() });
      }}
      onClose={close}
      pending={decide.isPending}
      error={decide.error}
    >
      <Text>
        {approve
          ? `Block ${deciding?.submission.block_id} is copied into the global catalog, where every user can find and use it.`
          : `Block ${deciding?.submission.block_id} stays private. Its author sees the reason below.`}
      </Text>
      {!approve && (
        <Textarea
          label="Reason"
          description="Tell the author what to change."
          required
          rows={3}
          value={reason}
          error={reasonError}
          onChange={(event) => setReason(event.currentTarget.value)}
          data-autofocus
        />
      )}
    </ConfirmModal>
  );
}
