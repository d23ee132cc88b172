import { Alert, Anchor, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { unwrap, useApi, type paths } from '../api/client';
import { errorMessage } from '../api/errors';
import { ErrorSummary } from '../forms/error-summary';
import { useServerErrors } from '../forms/server-errors';
import { formatDateTime } from '../format';
import { ResponsiveTable } from '../shell/responsive-table';
import { ConfirmModal } from '../forms/confirm-modal';

export type Site = paths['/api/sites/{id}']['get']['responses'][200]['content']['application/json'];
export const sitesKey = ['sites'] as const;

export function SitesScreen() {
  const api = useApi();
  const sites = useQuery({
    queryKey: sitesKey,
    queryFn: () => unwrap(api.GET('/api/sites', { params: { query: { limit: 200, offset: 0 } } })),
  });
  const [deleting, setDeleting] = useState<Site | null>(null);

  return (
    <Stack maw={960}>
      <Title order={1}>Sites</Title>
      <Text>A site is where pages are published: a CMS with its address and token, its folders and its layout.</Text>
      <CreateSiteForm />
      <section aria-labelledby="sites-title">
        <Title order={2} size="h3" id="sites-title" mb="sm">
          Your sites
        </Title>
        {sites.isPending ? (
          <Text c="dimmed">Loading…</Text>
        ) : sites.isError ? (
          <Alert color="red" title="Cannot load your sites" role="alert">
            {errorMessage(sites.error)}
          </Alert>
        ) : sites.data.data.length === 0 ? (
          <Text>No sites yet. Create the first one above: a name is enough to start.</Text>
        ) : (
          <ResponsiveTable
            label="Your sites"
            rows={sites.data.data}
            rowKey={(site) => site.id}
            columns={[
              {
                header: 'Name',
                cell: (site) => (
                  <Anchor component={Link} to={`/sites/${site.id}`}>
                    {site.name}
                  </Anchor>
                ),
              },
              { header: 'Domain', cell: (site) => site.domain ?? '—' },
              { header: 'Updated', cell: (site) => formatDateTime(site.updated_at) },
            ]}
            actions={(site) => (
              <Button
                size="xs"
                variant="light"
                color="red"
                onClick={() => setDeleting(site)}
                aria-label={`Delete site ${site.name}`}
              >
                Delete
              </Button>
            )}
          />
        )}
      </section>
      <DeleteSiteModal site={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}

function CreateSiteForm() {
  const api = useApi();
  const queryClient = useQueryClient();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { name: '', domain: '' },
    validate: { name: (value) => (value.trim() ? null : 'Give the site a name.') },
  });
  const errors = useServerErrors(form);
  const create = useMutation({
    mutationFn: (body: { name: string; domain: string | null }) => unwrap(api.POST('/api/sites', { body })),
    onSuccess: () => {
      form.reset();
      return queryClient.invalidateQueries({ queryKey: sitesKey });
    },
    onError: errors.showError,
  });
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      aria-label="Create a site"
      noValidate
      onSubmit={form.onSubmit(({ name, domain }) => {
        errors.clear();
        create.mutate({ name: name.trim(), domain: domain.trim() || null });
      })}
    >
      <Stack gap="sm">
        <Title order={2} size="h3">
          Create a site
        </Title>
        <ErrorSummary ref={errors.summaryRef} messages={errors.summary} title="Could not create the site" />
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
        <Group>
          <Button type="submit" loading={create.isPending}>
            Create site
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function DeleteSiteModal({ site, onClose }: { site: Site | null; onClose: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/api/sites/{id}', { params: { path: { id } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: sitesKey });
      onClose();
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
      <Text>The site “{site?.name}” and its settings are deleted. Pages already published to its CMS stay there.</Text>
    </ConfirmModal>
  );
}
