import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { errorMessage } from '../api/errors';

/**
 * The confirmation of an action: what follows in words, the service's
 * refusal in the dialog (the thing stays), Cancel and the action. The action
 * is red unless `danger` is false (approving, unblocking).
 */
export function ConfirmModal({
  opened,
  title,
  confirmLabel,
  onConfirm,
  onClose,
  pending,
  error,
  danger = true,
  children,
}: {
  opened: boolean;
  title: string;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  pending: boolean;
  error: unknown;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      {opened && (
        <Stack>
          {children}
          {error != null && (
            <Alert color="red" role="alert">
              {errorMessage(error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button color={danger ? 'red' : undefined} loading={pending} onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
