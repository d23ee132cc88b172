import { Text } from '@mantine/core';
import { ConfirmModal } from '../../forms/confirm-modal';
import type { Instance } from './use-page-blocks';

/** Asks before removing an instance: its values go, and so do the blocks nested in it. */
export function RemoveBlockModal({
  instance,
  onCancel,
  onConfirm,
  pending,
  error,
}: {
  instance: Instance | null;
  onCancel: () => void;
  onConfirm: (instance: Instance) => void;
  pending: boolean;
  error: unknown;
}) {
  return (
    <ConfirmModal
      opened={instance !== null}
      title="Remove this block?"
      confirmLabel="Remove block"
      onConfirm={() => instance && onConfirm(instance)}
      onClose={onCancel}
      pending={pending}
      error={error}
    >
      <Text>
        “{instance?.block.name}” leaves this page with the values entered in it, and any blocks nested in it go with it.
        The block stays in the library.
      </Text>
    </ConfirmModal>
  );
}
