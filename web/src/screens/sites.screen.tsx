import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { unwrap, useApi } from '../api/client';
import { errorMessage } from '../api/errors';
import { formatDateTime } from '../format';
import { ResponsiveTable } from '../shell/responsive-table';
import { DeleteSiteModal, SiteForm, sitesKey, type Site } from './site/site-form';
import { DocumentTitle } from '../shell/document-title';

export function SitesScreen() {
  const api = useApi();
  const sites = useQuery({
    queryKey: sitesKey,
    queryFn: () => unwrap(api.GET('/api/sites', { params: { query: { limit: 200, offset: 0 } } })),
  });
  const [deleting, setDeleting] = useState<Site | null>(null);

  return (
    <Stack maw={960}>
      <DocumentTitle title={'Sites'} />
      <Title order={1}>Sites</Title>
      <Text>A site is where pages are published: a CMS with its address and token, its folders and its layout.</Text>
      <SiteForm site={null} />
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
