import { Alert, Badge, Button, Group, Modal, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, useApi } from '../../api/client';
import { errorMessage } from '../../api/errors';

/** A side panel that searches the library (global blocks and the user's own) and adds one to the page. */
export function AddBlockModal({
  opened,
  onClose,
  onAdd,
  adding,
  error,
  into,
}: {
  opened: boolean;
  /** The layout instance the block goes into; null: the page. */
  into: { block: { name: string } } | null;
  onClose: () => void;
  onAdd: (blockId: number) => void;
  adding: boolean;
  error: unknown;
}) {
  const api = useApi();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const blocks = useQuery({
    queryKey: ['blocks', { search: debounced, offset: 0, picker: true }],
    queryFn: () =>
      unwrap(
        api.GET('/api/blocks', {
          params: { query: { limit: 20, offset: 0, ...(debounced ? { search: debounced } : {}) } },
        }),
      ),
    enabled: opened,
    placeholderData: keepPreviousData,
  });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={into ? `Add a block into “${into.block.name}”` : 'Add a block'}
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close the panel' }}
    >
      <Stack>
        {into && <Text size="sm">It goes at the end of “{into.block.name}”, inside the layout.</Text>}
        <TextInput
          label="Search blocks"
          description="By name and description"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          data-autofocus
        />
        {error != null && (
          <Alert color="red" role="alert" title="Could not add the block">
            {errorMessage(error)}
          </Alert>
        )}
        {blocks.isError && (
          <Alert color="red" role="alert" title="Cannot load the library">
            {errorMessage(blocks.error)}
          </Alert>
        )}
        {blocks.data && blocks.data.data.length === 0 && <Text size="sm">No block matches “{debounced}”.</Text>}
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {blocks.data?.data.map((block) => (
            <Paper component="li" withBorder p="sm" key={block.id}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                {/* The texts take what is left, the button its whole width: a long description clipped it to "Ad". */}
                <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                  <Group gap="xs">
                    <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {block.name}
                    </Text>
                    {block.kind === 'layout' && (
                      <Badge size="xs" variant="light">
                        Layout
                      </Badge>
                    )}
                    {block.scope === 'global' && (
                      <Badge size="xs" variant="light" color="gray">
                        Global
                      </Badge>
                    )}
                  </Group>
                  {block.description && (
                    <Text size="sm" c="dimmed" lineClamp={2}>
                      {block.description}
                    </Text>
                  )}
                </Stack>
                <Button
                  size="xs"
                  aria-label={`Add ${block.name}`}
                  disabled={adding}
                  onClick={() => onAdd(block.id)}
                  style={{ flexShrink: 0 }}
                >
                  Add
                </Button>
              </Group>
            </Paper>
          ))}
        </Stack>
      </Stack>
    </Modal>
  );
}
