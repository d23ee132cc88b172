import { Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, useApi } from '../../api/client';
import { ConfirmModal } from '../../forms/confirm-modal';
import { blockTitle, submissionsKey, type AdminSubmission } from './submission-types';

export type Decision = 'approve' | 'reject';

/** Approve or reject one submission, after asking; a rejection needs a reason for the author. */
export function DecisionModal({
  deciding,
  onClose,
}: {
  deciding: { submission: AdminSubmission; decision: Decision } | null;
  onClose: () => void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const decide = useMutation({
    mutationFn: ({ id, decision, reason }: { id: number; decision: Decision; reason: string }) =>
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
  const title = deciding ? blockTitle(deciding.submission) : '';
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
          ? `${title} is copied into the global catalog as submitted, where every user can find and use it.`
          : `${title} stays private. Its author sees the reason below.`}
      </Text>
      {approve && deciding?.submission.changed_since_submitted && (
        <Text size="sm">The author’s changes since submitting are not part of the copy.</Text>
      )}
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
