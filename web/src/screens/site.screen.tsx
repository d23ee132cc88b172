import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
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
import { FoldersSection } from './site/folders-section';
import { DeleteSiteModal, SiteForm, siteKey } from './site/site-form';
import { DocumentTitle } from '../shell/document-title';
import { ScreenError } from '../shell/screen-error';

type Provider = paths['/api/sites/{id}/provider']['get']['responses'][200]['content']['application/json'];

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
  const navigate = useNavigate();

  if (!Number.isInteger(id) || id <= 0) return <Alert color="red">There is no site at this address.</Alert>;
  if (site.isPending) return <Text c="dimmed">Loading…</Text>;
  if (site.isError)
    return (
      <ScreenError
        title="Cannot load this site"
        error={site.error}
        what="site"
        back={{ to: '/sites', label: 'Sites' }}
      />
    );
  return (
    <Stack maw={960}>
      <Anchor component={Link} to="/sites" size="sm">
        ← Sites
      </Anchor>
      <Group justify="space-between" wrap="wrap">
        <DocumentTitle title={site.data.name} />
        <Title order={1}>{site.data.name}</Title>
        <Button variant="light" color="red" onClick={() => setDeleting(true)}>
          Delete site
        </Button>
      </Group>
      <SiteForm site={site.data} />
      <ProviderSection siteId={id} />
      <StorageSection siteId={id} />
      <FoldersSection siteId={id} />
      <DeleteSiteModal
        site={deleting ? site.data : null}
        onClose={() => setDeleting(false)}
        onDeleted={() => navigate('/sites')}
      />
    </Stack>
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
      probe.reset();
      queryClient.setQueryData(['sites', siteId, 'provider'], saved);
    },
    onError: errors.showError,
  });
  const probe = useMutation({
    mutationFn: () => unwrap(api.POST('/api/sites/{id}/provider/check', { params: { path: { id: siteId } } })),
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
          {provider.type !== null && (
            <Button
              variant="default"
              loading={probe.isPending}
              onClick={() => {
                save.reset();
                probe.mutate();
              }}
            >
              Check connection
            </Button>
          )}
        </Group>
        {save.isSuccess && <CheckResult check={save.data.check} saved />}
        {probe.isSuccess && <CheckResult check={probe.data} />}
        {probe.isError && (
          <Alert color="red" role="alert" title="Could not check the provider">
            {errorMessage(probe.error)}
          </Alert>
        )}
      </Stack>
    </form>
  );
}

/** What the provider said of the settings: a failed check informs, the settings are kept either way. */
function CheckResult({ check, saved = false }: { check: { ok: boolean; error?: string }; saved?: boolean }) {
  if (check.ok)
    return (
      <Text size="sm" role="status" c="green.8">
        {saved ? 'Provider saved. ' : ''}fourcms answered and accepted the token.
      </Text>
    );
  return (
    <Alert
      color="yellow"
      role="alert"
      title={saved ? 'Saved, but the provider did not accept it' : 'The provider did not accept the settings'}
    >
      {check.error}. Pages of this site cannot be published until this is fixed.
    </Alert>
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
