import { Alert, Anchor, Button, Group, NumberInput, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { unwrap, useApi, type paths } from '../api/client';
import { errorMessage } from '../api/errors';
import { ResponsiveTable } from '../shell/responsive-table';
import { ConfirmModal } from '../forms/confirm-modal';
import { DocumentTitle } from '../shell/document-title';

type Block = paths['/api/blocks']['get']['responses'][200]['content']['application/json']['data'][number];

/**
 * Administrators: deprecate a global block. A deprecated block leaves lists
 * and search (its instances keep working), so this list never shows one; it
 * comes back through its id.
 */
export function AdminDeprecationScreen() {
  const api = useApi();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const blocks = useQuery({
    queryKey: ['blocks', 'admin-deprecation', debounced],
    queryFn: () =>
      unwrap(
        api.GET('/api/blocks', {
          params: { query: { limit: 200, offset: 0, ...(debounced ? { search: debounced } : {}) } },
        }),
      ),
  });
  const [deprecating, setDeprecating] = useState<Block | null>(null);
  const globals = blocks.data?.data.filter((b) => b.scope === 'global') ?? [];

  return (
    <Stack maw={960}>
      <DocumentTitle title={'Deprecate global blocks'} />
      <Title order={1}>Deprecate global blocks</Title>
      <Text>
        A deprecated block disappears from the library and from search, so nobody adds it to a new page. Pages that use
        it keep working and can still be published.
      </Text>
      <TextInput
        label="Search global blocks"
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={360}
      />
      {blocks.isPending ? (
        <Text c="dimmed">Loading…</Text>
      ) : blocks.isError ? (
        <Alert color="red" title="Cannot load the blocks" role="alert">
          {errorMessage(blocks.error)}
        </Alert>
      ) : globals.length === 0 ? (
        <Text>No global block matches.</Text>
      ) : (
        <ResponsiveTable
          label="Global blocks"
          rows={globals}
          rowKey={(block) => block.id}
          columns={[
            {
              header: 'Block',
              cell: (block) => (
                <Anchor component={Link} to={`/blocks/${block.id}`}>
                  {block.name}
                </Anchor>
              ),
            },
            { header: 'Id', cell: (block) => block.id },
          ]}
          actions={(block) => (
            <Button
              size="xs"
              variant="light"
              color="red"
              onClick={() => setDeprecating(block)}
              aria-label={`Deprecate ${block.name}`}
            >
              Deprecate
            </Button>
          )}
        />
      )}
      <RestoreForm />
      <DeprecateModal block={deprecating} onClose={() => setDeprecating(null)} />
    </Stack>
  );
}

function useSetDeprecated() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, is_deprecated }: { id: number; is_deprecated: boolean }) =>
      unwrap(api.PUT('/api/admin/blocks/{id}/deprecation', { params: { path: { id } }, body: { is_deprecated } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['blocks'] }),
  });
}

function DeprecateModal({ block, onClose }: { block: Block | null; onClose: () => void }) {
  const deprecate = useSetDeprecated();
  const close = () => {
    deprecate.reset();
    onClose();
  };
  return (
    <ConfirmModal
      opened={block !== null}
      title="Deprecate this block?"
      confirmLabel="Deprecate"
      onConfirm={() => block && deprecate.mutate({ id: block.id, is_deprecated: true }, { onSuccess: close })}
      onClose={close}
      pending={deprecate.isPending}
      error={deprecate.error}
    >
      <Text>
        “{block?.name}” (id {block?.id}) leaves the library and search for every user. Pages that use it keep it. You
        can bring it back later with its id, {block?.id}.
      </Text>
    </ConfirmModal>
  );
}

function RestoreForm() {
  const restore = useSetDeprecated();
  const [id, setId] = useState<number | ''>('');
  const [idError, setIdError] = useState<string | null>(null);
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      aria-label="Bring back a deprecated block"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (typeof id !== 'number' || id < 1) return setIdError('Enter the id of a global block.');
        setIdError(null);
        restore.mutate({ id, is_deprecated: false });
      }}
    >
      <Stack gap="sm">
        <Title order={2} size="h3">
          Bring back a deprecated block
        </Title>
        <Group align="flex-end" wrap="wrap">
          <NumberInput
            label="Block id"
            required
            min={1}
            allowDecimal={false}
            allowNegative={false}
            maw={200}
            value={id}
            error={idError}
            onChange={(value) => setId(typeof value === 'number' ? value : '')}
          />
          <Button type="submit" loading={restore.isPending}>
            Bring back
          </Button>
        </Group>
        {restore.isError && (
          <Alert color="red" role="alert">
            {errorMessage(restore.error)}
          </Alert>
        )}
        {restore.isSuccess && (
          <Alert color="green" role="status">
            “{restore.data.name}” is back in the library.
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
