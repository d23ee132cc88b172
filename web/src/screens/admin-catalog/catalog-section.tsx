import { Alert, Button, Modal, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { ConfirmModal } from '../../forms/confirm-modal';
import { EntryForm } from './entry-form';
import { ResponsiveTable } from '../../shell/responsive-table';
import type { Section } from './section';

/** One list of the catalog: the form for a new entry, the entries, and their edit and delete dialogs. */
export function CatalogSection<Row>({ section }: { section: Section<Row> }) {
  const api = useApi();
  const rows = useQuery({ queryKey: ['admin', 'catalog', section.id], queryFn: () => section.list(api) });
  const [editing, setEditing] = useState<Row | null>(null);
  const [removing, setRemoving] = useState<Row | null>(null);
  return (
    <Stack>
      <Text>{section.intro}</Text>
      <Paper withBorder p="md">
        <EntryForm section={section} row={null} />
      </Paper>
      {rows.isPending ? (
        <Text c="dimmed">Loading…</Text>
      ) : rows.isError ? (
        <Alert color="red" title={`Cannot load the ${section.title.toLowerCase()}`} role="alert">
          {errorMessage(rows.error)}
        </Alert>
      ) : rows.data.length === 0 ? (
        <Text>None yet.</Text>
      ) : (
        <ResponsiveTable
          label={section.title}
          rows={rows.data}
          rowKey={section.key}
          columns={[
            { header: 'Name', cell: section.name },
            ...section.columns.map((c) => ({ header: c.label, cell: c.value })),
          ]}
          actions={(row) => (
            <>
              {section.update && (
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => setEditing(row)}
                  aria-label={`Edit ${section.noun} ${section.name(row)}`}
                >
                  Edit
                </Button>
              )}
              {section.remove && (
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  onClick={() => setRemoving(row)}
                  aria-label={`Delete ${section.noun} ${section.name(row)}`}
                >
                  Delete
                </Button>
              )}
            </>
          )}
        />
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === null ? '' : `Edit ${section.noun} “${section.name(editing)}”`}
        size="lg"
      >
        {editing !== null && <EntryForm section={section} row={editing} onSaved={() => setEditing(null)} />}
      </Modal>
      <RemoveModal section={section} row={removing} onClose={() => setRemoving(null)} />
    </Stack>
  );
}

function RemoveModal<Row>({ section, row, onClose }: { section: Section<Row>; row: Row | null; onClose: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (target: Row) => section.remove!(api, target),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['admin', 'catalog', section.id] });
      close();
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmModal
      opened={row !== null}
      title={`Delete this ${section.noun}?`}
      confirmLabel={`Delete ${section.noun}`}
      onConfirm={() => row !== null && remove.mutate(row)}
      onClose={close}
      pending={remove.isPending}
      error={remove.error}
    >
      <Text>
        “{row !== null && section.name(row)}” is deleted for every user. {section.removeConsequence} This cannot be
        undone.
      </Text>
    </ConfirmModal>
  );
}
