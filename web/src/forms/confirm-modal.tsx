import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { errorMessage } from '../api/errors';

/**
 * The confirmation of a destructive action: what follows in words, the
 * service's refusal in the dialog (the thing stays), Cancel and the action.
 */
export function ConfirmModal({
  opened,
  title,
  confirmLabel,
  onConfirm,
  onClose,
  pending,
  error,
  children,
}: {
  opened: boolean;
  title: string;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  pending: boolean;
  error: unknown;
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
            <Button color="red" loading={pending} onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
