import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  NativeSelect,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { unwrap, useApi, type paths } from '../api/client';
import { errorMessage } from '../api/errors';
import { ErrorSummary } from '../forms/error-summary';
import { useServerErrors } from '../forms/server-errors';
import { formatDateTime } from '../format';
import { sitesKey, type Site } from './sites.screen';

type Provider = paths['/api/sites/{id}/provider']['get']['responses'][200]['content']['application/json'];
type Folder = paths['/api/folders/{id}']['get']['responses'][200]['content']['application/json'];

const siteKey = (id: number) => ['sites', id] as const;
const foldersKey = (siteId: number) => ['folders', { site_id: siteId }] as const;

/** One site: its name and layout, its CMS provider, its storage and its folders. */
export function SiteScreen() {
  const api = useApi();
  const id = Number(useParams().id);
  const site = useQuery({
    queryKey: siteKey(id),
    queryFn: () => unwrap(api.GET('/api/sites/{id}', { params: { path: { id } } })),
    enabled: Number.isInteger(id) && id > 0,
  });
  const [deleting, setDeleting] = useState(false);

  if (!Number.isInteger(id) || id <= 0) return <Alert color="red">There is no site at this address.</Alert>;
  if (site.isPending) return <Text c="dimmed">Loading…</Text>;
  if (site.isError) {
    return (
      <Stack maw={960}>
        <Alert color="red" title="Cannot load this site" role="alert">
          {errorMessage(site.error)}
        </Alert>
        <Anchor component={Link} to="/sites">
          Back to your sites
        </Anchor>
      </Stack>
    );
  }
  return (
    <Stack maw={960}>
      <Anchor component={Link} to="/sites" size="sm">
        ← Sites
      </Anchor>
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{site.data.name}</Title>
        <Button variant="light" color="red" onClick={() => setDeleting(true)}>
          Delete site
        </Button>
      </Group>
      <SiteSettingsForm site={site.data} />
      <ProviderSection siteId={id} />
      <StorageSection siteId={id} />
      <FoldersSection siteId={id} />
      <DeleteThisSiteModal site={deleting ? site.data : null} onClose={() => setDeleting(false)} />
    </Stack>
  );
}

function SiteSettingsForm({ site }: { site: Site }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const layouts = useQuery({
    queryKey: ['layouts'],
    queryFn: () => unwrap(api.GET('/api/layouts', { params: { query: { limit: 200, offset: 0 } } })),
  });
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { name: site.name, domain: site.domain ?? '', layout_id: site.layout_id?.toString() ?? '' },
    validate: { name: (value) => (value.trim() ? null : 'Give the site a name.') },
  });
  const errors = useServerErrors(form);
  const save = useMutation({
    mutationFn: (body: { name: string; domain: string | null; layout_id: number | null }) =>
      unwrap(api.PUT('/api/sites/{id}', { params: { path: { id: site.id } }, body })),
    onSuccess: (saved) => {
      queryClient.setQueryData(siteKey(site.id), saved);
      return queryClient.invalidateQueries({ queryKey: sitesKey, exact: true });
    },
    onError: errors.showError,
  });
  // Layouts usable here: global ones and the user's own that are not tied to another site.
  const choices = (layouts.data?.data ?? []).filter((l) => l.site_id === null || l.site_id === site.id);
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      aria-labelledby="site-settings-title"
      noValidate
      onSubmit={form.onSubmit(({ name, domain, layout_id }) => {
        errors.clear();
        save.reset();
        save.mutate({
          name: name.trim(),
          domain: domain.trim() || null,
          layout_id: layout_id ? Number(layout_id) : null,
        });
      })}
    >
      <Stack gap="sm">
        <Title order={2} size="h3" id="site-settings-title">
          Name and layout
        </Title>
        <ErrorSummary ref={errors.summaryRef} messages={errors.summary} title="Could not save the site" />
        <Group align="flex-start" wrap="wrap">
          <TextInput
            label="Name"
            required
            maxLength={255}
            style={{ flex: '1 1 200px' }}
            key={form.key('name')}
            {...form.getInputProps('name')}
          />
          <TextInput
            label="Domain"
            description="Optional, e.g. news.example.com."
            maxLength={255}
            style={{ flex: '1 1 200px' }}
            key={form.key('domain')}
            {...form.getInputProps('domain')}
          />
        </Group>
        <NativeSelect
          label="Layout"
          description={
            layouts.isError
              ? `Cannot load the layouts: ${errorMessage(layouts.error)}`
              : 'The frame around every page of this site.'
          }
          data={[
            { value: '', label: 'No layout' },
            ...choices.map((l) => ({
              value: String(l.id),
              label: l.scope === 'global' ? `${l.name} (global)` : l.name,
            })),
          ]}
          key={form.key('layout_id')}
          {...form.getInputProps('layout_id')}
        />
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
          {save.isSuccess && (
            <Text size="sm" role="status">
              Saved.
            </Text>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

function ProviderSection({ siteId }: { siteId: number }) {
  const api = useApi();
  const provider = useQuery({
    queryKey: ['sites', siteId, 'provider'],
    queryFn: () => unwrap(api.GET('/api/sites/{id}/provider', { params: { path: { id: siteId } } })),
  });
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="provider-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="provider-title">
          CMS provider
        </Title>
        {provider.isPending ? (
          <Text c="dimmed">Loading…</Text>
        ) : provider.isError ? (
          <Alert color="red" title="Cannot load the provider" role="alert">
            {errorMessage(provider.error)}
          </Alert>
        ) : (
          <ProviderForm siteId={siteId} provider={provider.data} />
        )}
      </Stack>
    </Paper>
  );
}

function ProviderForm({ siteId, provider }: { siteId: number; provider: Provider }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { base_url: provider.base_url ?? '', token: '' },
    validate: {
      base_url: (value) => (/^https?:\/\/\S+$/.test(value.trim()) ? null : 'Enter an http:// or https:// address.'),
      // The service asks for the token with every change and never returns it, so it cannot be kept blank.
      token: (value) =>
        value.trim()
          ? null
          : provider.token_set
            ? 'Enter the token again: the stored one is never shown, and a change needs it.'
            : 'Enter the token of the fourcms API.',
    },
  });
  const errors = useServerErrors(form);
  const save = useMutation({
    mutationFn: (body: { base_url: string; token: string }) =>
      unwrap(api.PUT('/api/sites/{id}/provider/fourcms', { params: { path: { id: siteId } }, body })),
    onSuccess: (saved) => {
      // The token leaves the form once stored: it is write-only.
      form.setFieldValue('token', '');
      queryClient.setQueryData(['sites', siteId, 'provider'], saved);
    },
    onError: errors.showError,
  });
  return (
    <form
      aria-label="CMS provider"
      noValidate
      onSubmit={form.onSubmit(({ base_url, token }) => {
        errors.clear();
        save.reset();
        save.mutate({ base_url: base_url.trim(), token: token.trim() });
      })}
    >
      <Stack gap="sm">
        <Text size="sm" role="status">
          {provider.type === null
            ? 'No provider yet: pages of this site cannot be published until you set one.'
            : `fourcms${provider.token_set ? ', token stored' : ', no token'}${
                provider.updated_at ? `, changed ${formatDateTime(provider.updated_at)}` : ''
              }.`}
        </Text>
        <ErrorSummary ref={errors.summaryRef} messages={errors.summary} title="Could not save the provider" />
        <TextInput
          label="fourcms API address"
          description="http or https, a public address."
          required
          type="url"
          maxLength={2000}
          key={form.key('base_url')}
          {...form.getInputProps('base_url')}
        />
        <PasswordInput
          label="Token"
          description={
            provider.token_set
              ? 'A token is stored and is never shown. Enter it (or a new one) to save a change.'
              : 'Stored for publishing and never shown again.'
          }
          required
          autoComplete="off"
          maxLength={4000}
          key={form.key('token')}
          {...form.getInputProps('token')}
        />
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save provider
          </Button>
          {save.isSuccess && (
            <Text size="sm" role="status">
              Provider saved.
            </Text>
          )}
        </Group>
      </Stack>
    </form>
  );
}

function StorageSection({ siteId }: { siteId: number }) {
  const api = useApi();
  const status = useQuery({
    queryKey: ['sites', siteId, 's3'],
    queryFn: () => unwrap(api.GET('/api/sites/{id}/s3/status', { params: { path: { id: siteId } } })),
  });
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="storage-title">
      <Stack gap="xs">
        <Title order={2} size="h3" id="storage-title">
          Storage
        </Title>
        {status.isPending ? (
          <Text c="dimmed">Loading…</Text>
        ) : status.isError ? (
          <Alert color="red" title="Cannot load the storage status" role="alert">
            {errorMessage(status.error)}
          </Alert>
        ) : status.data.configured ? (
          <>
            <Group gap="xs">
              <Badge color="green">Configured</Badge>
              <Text size="sm">Uploads go to the bucket “{status.data.bucket ?? '—'}”.</Text>
            </Group>
            {status.data.public_url && <Text size="sm">Public address: {status.data.public_url}</Text>}
          </>
        ) : (
          <Group gap="xs">
            <Badge color="gray">Not configured</Badge>
            <Text size="sm">The service has no S3 storage; uploads are kept by the service itself.</Text>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function FoldersSection({ siteId }: { siteId: number }) {
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
    <Modal opened={folder !== null} onClose={close} title="Delete this folder?">
      {folder && (
        <Stack>
          <Text>
            The folder “{folder.name}” and the folders inside it are deleted. Their pages stay, at the root of the site.
          </Text>
          {remove.isError && (
            <Alert color="red" role="alert">
              {errorMessage(remove.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(folder.id)}>
              Delete folder
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function DeleteThisSiteModal({ site, onClose }: { site: Site | null; onClose: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/api/sites/{id}', { params: { path: { id } } })),
    onSuccess: async (_, id) => {
      queryClient.removeQueries({ queryKey: siteKey(id) });
      await queryClient.invalidateQueries({ queryKey: sitesKey, exact: true });
      await navigate('/sites');
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Modal opened={site !== null} onClose={close} title="Delete this site?">
      {site && (
        <Stack>
          <Text>
            The site “{site.name}”, its provider settings and its folders are deleted. Its pages stay, without a site;
            pages already published to its CMS stay there.
          </Text>
          {remove.isError && (
            <Alert color="red" role="alert">
              {errorMessage(remove.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(site.id)}>
              Delete site
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
