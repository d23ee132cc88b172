import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { errorMessage } from '../../api/errors';
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
    <Modal opened={instance !== null} onClose={onCancel} title="Remove this block?">
      {instance && (
        <Stack>
          <Text>
            “{instance.block.name}” leaves this page with the values entered in it, and any blocks nested in it go with
            it. The block stays in the library.
          </Text>
          {error != null && (
            <Alert color="red" role="alert">
              {errorMessage(error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
            <Button color="red" loading={pending} onClick={() => onConfirm(instance)}>
              Remove block
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
