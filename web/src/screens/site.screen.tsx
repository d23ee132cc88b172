import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
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
import { ConfirmModal } from '../forms/confirm-modal';
import { FoldersSection } from './site/folders-section';

type Provider = paths['/api/sites/{id}/provider']['get']['responses'][200]['content']['application/json'];

const siteKey = (id: number) => ['sites', id] as const;

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
              <Badge color="green" variant="light">
                Configured
              </Badge>
              <Text size="sm">
                {status.data.bucket === null
                  ? 'Uploads (block covers) are kept by the service itself, in its data directory.'
                  : `Uploads go to the bucket “${status.data.bucket}”.`}
              </Text>
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
    <ConfirmModal
      opened={site !== null}
      title="Delete this site?"
      confirmLabel="Delete site"
      onConfirm={() => site && remove.mutate(site.id)}
      onClose={close}
      pending={remove.isPending}
      error={remove.error}
    >
      <Text>
        The site “{site?.name}”, its provider settings and its folders are deleted. Its pages stay, without a site;
        pages already published to its CMS stay there.
      </Text>
    </ConfirmModal>
  );
}
