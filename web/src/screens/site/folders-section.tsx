import { Alert, Button, Group, Modal, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, useApi, type paths } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { ConfirmModal } from '../../forms/confirm-modal';
import { ErrorSummary } from '../../forms/error-summary';
import { useServerErrors } from '../../forms/server-errors';

type Folder = paths['/api/folders/{id}']['get']['responses'][200]['content']['application/json'];

const foldersKey = (siteId: number) => ['folders', { site_id: siteId }] as const;

/** A site's folders, nested by parent: create, rename and delete (its pages move to the root). */
export function FoldersSection({ siteId }: { siteId: number }) {
  const api = useApi();
  const folders = useQuery({
    queryKey: foldersKey(siteId),
    queryFn: () => unwrap(api.GET('/api/folders', { params: { query: { limit: 200, offset: 0, site_id: siteId } } })),
  });
  const [renaming, setRenaming] = useState<Folder | null>(null);
  const [deleting, setDeleting] = useState<Folder | null>(null);
  const list = folders.data?.data ?? [];
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="folders-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="folders-title">
          Folders
        </Title>
        <CreateFolderForm siteId={siteId} folders={list} />
        {folders.isPending ? (
          <Text c="dimmed">Loading…</Text>
        ) : folders.isError ? (
          <Alert color="red" title="Cannot load the folders" role="alert">
            {errorMessage(folders.error)}
          </Alert>
        ) : list.length === 0 ? (
          <Text>No folders yet. Pages can live at the root of the site, or in folders you create above.</Text>
        ) : (
          <FolderTree folders={list} parent={null} onRename={setRenaming} onDelete={setDeleting} />
        )}
      </Stack>
      <RenameFolderModal siteId={siteId} folder={renaming} onClose={() => setRenaming(null)} />
      <DeleteFolderModal siteId={siteId} folder={deleting} onClose={() => setDeleting(null)} />
    </Paper>
  );
}

function FolderTree({
  folders,
  parent,
  onRename,
  onDelete,
}: {
  folders: Folder[];
  parent: number | null;
  onRename: (folder: Folder) => void;
  onDelete: (folder: Folder) => void;
}) {
  const children = folders.filter((f) => f.parent_id === parent);
  if (children.length === 0) return null;
  return (
    <ul style={{ listStyle: 'none', paddingLeft: parent === null ? 0 : 'var(--mantine-spacing-lg)', margin: 0 }}>
      {children.map((folder) => (
        <li key={folder.id}>
          <Group gap="xs" py={4} wrap="wrap">
            <Text fw={500} style={{ flex: '1 1 120px' }}>
              {folder.name}
            </Text>
            <Button
              size="xs"
              variant="default"
              onClick={() => onRename(folder)}
              aria-label={`Rename folder ${folder.name}`}
            >
              Rename
            </Button>
            <Button
              size="xs"
              variant="light"
              color="red"
              onClick={() => onDelete(folder)}
              aria-label={`Delete folder ${folder.name}`}
            >
              Delete
            </Button>
          </Group>
          <FolderTree folders={folders} parent={folder.id} onRename={onRename} onDelete={onDelete} />
        </li>
      ))}
    </ul>
  );
}

/** Folders as select options, indented by depth, parents before their children. */
function folderOptions(folders: Folder[]): { value: string; label: string }[] {
  const out: { value: string; label: string }[] = [];
  const walk = (parent: number | null, depth: number) => {
    for (const f of folders.filter((x) => x.parent_id === parent)) {
      out.push({ value: String(f.id), label: `${'\u00a0\u00a0'.repeat(depth)}${f.name}` });
      walk(f.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

function CreateFolderForm({ siteId, folders }: { siteId: number; folders: Folder[] }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { name: '', parent_id: '' },
    validate: { name: (value) => (value.trim() ? null : 'Give the folder a name.') },
  });
  const errors = useServerErrors(form);
  const create = useMutation({
    mutationFn: (body: { site_id: number; parent_id: number | null; name: string }) =>
      unwrap(api.POST('/api/folders', { body })),
    onSuccess: () => {
      form.reset();
      return queryClient.invalidateQueries({ queryKey: ['folders'] });
    },
    onError: errors.showError,
  });
  return (
    <form
      aria-label="Create a folder"
      noValidate
      onSubmit={form.onSubmit(({ name, parent_id }) => {
        errors.clear();
        create.mutate({ site_id: siteId, parent_id: parent_id ? Number(parent_id) : null, name: name.trim() });
      })}
    >
      <Stack gap="xs">
        <ErrorSummary ref={errors.summaryRef} messages={errors.summary} title="Could not create the folder" />
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="Folder name"
            required
            maxLength={255}
            style={{ flex: '1 1 180px' }}
            key={form.key('name')}
            {...form.getInputProps('name')}
          />
          <NativeSelect
            label="Inside"
            data={[{ value: '', label: 'The root of the site' }, ...folderOptions(folders)]}
            style={{ flex: '1 1 180px' }}
            key={form.key('parent_id')}
            {...form.getInputProps('parent_id')}
          />
          <Button type="submit" loading={create.isPending}>
            Create folder
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function RenameFolderModal({
  siteId,
  folder,
  onClose,
}: {
  siteId: number;
  folder: Folder | null;
  onClose: () => void;
}) {
  return (
    <Modal opened={folder !== null} onClose={onClose} title="Rename the folder">
      {/* Keyed by the folder, so that each opening starts from its name with no old errors. */}
      {folder && <RenameFolderForm key={folder.id} siteId={siteId} folder={folder} onClose={onClose} />}
    </Modal>
  );
}

function RenameFolderForm({ siteId, folder, onClose }: { siteId: number; folder: Folder; onClose: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { name: folder.name },
    validate: { name: (value) => (value.trim() ? null : 'Give the folder a name.') },
  });
  const errors = useServerErrors(form);
  const rename = useMutation({
    mutationFn: (name: string) =>
      unwrap(api.PUT('/api/folders/{id}', { params: { path: { id: folder.id } }, body: { name } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: foldersKey(siteId) });
      onClose();
    },
    onError: errors.showError,
  });
  return (
    <form
      aria-label="Rename the folder"
      noValidate
      onSubmit={form.onSubmit(({ name }) => {
        errors.clear();
        rename.mutate(name.trim());
      })}
    >
      <Stack>
        <ErrorSummary ref={errors.summaryRef} messages={errors.summary} title="Could not rename the folder" />
        <TextInput
          label="New name"
          required
          maxLength={255}
          data-autofocus
          key={form.key('name')}
          {...form.getInputProps('name')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={rename.isPending}>
            Rename
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function DeleteFolderModal({
  siteId,
  folder,
  onClose,
}: {
  siteId: number;
  folder: Folder | null;
  onClose: () => void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/api/folders/{id}', { params: { path: { id } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: foldersKey(siteId) });
      onClose();
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmModal
      opened={folder !== null}
      title="Delete this folder?"
      confirmLabel="Delete folder"
      onConfirm={() => folder && remove.mutate(folder.id)}
      onClose={close}
      pending={remove.isPending}
      error={remove.error}
    >
      <Text>
        The folder “{folder?.name}” and the folders inside it are deleted. Their pages stay, at the root of the site.
      </Text>
    </ConfirmModal>
  );
}
