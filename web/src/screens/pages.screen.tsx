import { Alert, Anchor, Badge, Button, Checkbox, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { unwrap, useApi, type paths } from '../api/client';
import { errorMessage } from '../api/errors';
import { FormPanel } from '../forms/form-panel';
import { useServerErrors } from '../forms/server-errors';
import { formatDateTime } from '../format';
import { DocumentTitle } from '../shell/document-title';
import { ResponsiveTable } from '../shell/responsive-table';

type Page = paths['/api/pages/{id}']['get']['responses'][200]['content']['application/json'];
type Folder = paths['/api/folders']['get']['responses'][200]['content']['application/json']['data'][number];
type Site = paths['/api/sites']['get']['responses'][200]['content']['application/json']['data'][number];

const ALL = { query: { limit: 200, offset: 0 } };

/**
 * Pages grouped by site and folder, with what needs attention (outdated
 * blocks, changes the site does not have yet) in words. The list endpoint is
 * not per site, so the groups are made here from one page of up to 200.
 */
export function PagesScreen() {
  const api = useApi();
  const [params, setParams] = useSearchParams();
  const outdatedOnly = params.get('outdated') === '1';
  const unpublishedOnly = params.get('unpublished') === '1';
  const filter = (name: 'outdated' | 'unpublished', on: boolean) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (on) next.set(name, '1');
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  const pages = useQuery({
    queryKey: ['pages', { outdatedOnly, unpublishedOnly }],
    queryFn: () =>
      unwrap(
        api.GET('/api/pages', {
          params: {
            query: {
              ...ALL.query,
              ...(outdatedOnly ? { has_outdated: 1 } : {}),
              ...(unpublishedOnly ? { has_unpublished_changes: 1 } : {}),
            },
          },
        }),
      ),
  });
  // Which pages the site is behind on: the list's filter, asked once beside the list (a page's answer does not say).
  const behind = useQuery({
    queryKey: ['pages', 'unpublished-changes'],
    queryFn: () => unwrap(api.GET('/api/pages', { params: { query: { ...ALL.query, has_unpublished_changes: 1 } } })),
    select: (answer) => new Set(answer.data.map((page) => page.id)),
  });
  const sites = useQuery({ queryKey: ['sites'], queryFn: () => unwrap(api.GET('/api/sites', { params: ALL })) });
  const folders = useQuery({ queryKey: ['folders'], queryFn: () => unwrap(api.GET('/api/folders', { params: ALL })) });

  const failure = pages.error ?? sites.error ?? folders.error;
  return (
    <Stack maw={1100}>
      <DocumentTitle title={'Pages'} />
      <Title order={1}>Pages</Title>
      <Text>A page is a list of blocks with their values, on one of your sites.</Text>
      {sites.data && <CreatePageForm sites={sites.data.data} folders={folders.data?.data ?? []} />}
      <Group gap="lg">
        <Checkbox
          label="Only pages with outdated blocks"
          checked={outdatedOnly}
          onChange={(event) => filter('outdated', event.currentTarget.checked)}
        />
        <Checkbox
          label="Only pages changed since publication"
          checked={unpublishedOnly}
          onChange={(event) => filter('unpublished', event.currentTarget.checked)}
        />
      </Group>
      {failure ? (
        <Alert color="red" title="Cannot load your pages" role="alert">
          {errorMessage(failure)}
        </Alert>
      ) : !pages.data || !sites.data || !folders.data ? (
        <Text c="dimmed">Loading…</Text>
      ) : pages.data.data.length === 0 ? (
        <Text>
          {outdatedOnly || unpublishedOnly
            ? [
                outdatedOnly && 'No page has outdated blocks.',
                unpublishedOnly && 'No published page has changed since its publication.',
              ]
                .filter(Boolean)
                .join(' ')
            : 'No pages yet. Create the first one above.'}
        </Text>
      ) : (
        groupBySite(pages.data.data, sites.data.data).map(({ site, pages: sitePages }) => (
          <SitePages
            key={site?.id ?? 'none'}
            site={site}
            pages={sitePages}
            folders={folders.data.data}
            behind={behind.data}
          />
        ))
      )}
    </Stack>
  );
}

function groupBySite(pages: Page[], sites: Site[]) {
  const groups = new Map<number | null, Page[]>();
  for (const page of pages) groups.set(page.site_id, [...(groups.get(page.site_id) ?? []), page]);
  return [...groups].map(([siteId, list]) => ({ site: sites.find((s) => s.id === siteId) ?? null, pages: list }));
}

function SitePages({
  site,
  pages,
  folders,
  behind,
}: {
  site: Site | null;
  pages: Page[];
  folders: Folder[];
  /** Pages changed since their publication; undefined until known. */
  behind: Set<number> | undefined;
}) {
  // A folder not in the list (deleted meanwhile) is no folder: never an internal id.
  const folderName = (id: number | null) => (id === null ? '—' : (folders.find((f) => f.id === id)?.name ?? '—'));
  const titleId = `site-${site?.id ?? 'none'}`;
  return (
    <section aria-labelledby={titleId}>
      <Title order={2} size="h3" id={titleId} mb="xs">
        {site ? site.name : 'Without a site'}
      </Title>
      <ResponsiveTable
        label={`Pages of ${site ? site.name : 'no site'}`}
        rows={[...pages].sort((a, b) => folderName(a.folder_id).localeCompare(folderName(b.folder_id)))}
        rowKey={(page) => page.id}
        columns={[
          {
            header: 'Page',
            cell: (page) => (
              <Anchor component={Link} to={`/pages/${page.id}`}>
                {page.name}
              </Anchor>
            ),
          },
          { header: 'Folder', cell: (page) => folderName(page.folder_id) },
          { header: 'Kind', cell: (page) => page.kind },
          {
            header: 'State',
            cell: (page) => (
              <Group gap={6} component="span">
                <Badge variant="light" color={page.is_published ? 'green' : 'gray'}>
                  {page.is_published ? 'Published' : 'Draft'}
                </Badge>
                {page.is_published && behind?.has(page.id) && (
                  <Badge variant="light" color="blue">
                    Changed since publication
                  </Badge>
                )}
                {page.has_outdated_blocks && (
                  <Badge variant="light" color="orange">
                    Outdated blocks
                  </Badge>
                )}
              </Group>
            ),
          },
          { header: 'Updated', cell: (page) => formatDateTime(page.updated_at), nowrap: true },
        ]}
      />
    </section>
  );
}

function CreatePageForm({ sites, folders }: { sites: Site[]; folders: Folder[] }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const kinds = useQuery({
    queryKey: ['page-types'],
    queryFn: () => unwrap(api.GET('/api/page-types', { params: ALL })),
  });
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '', site_id: sites[0] ? String(sites[0].id) : '', kind: 'article', folder_id: '' },
    validate: {
      name: (value) => (value.trim() ? null : 'Give the page a name.'),
      site_id: (value) => (value ? null : 'Choose the site the page belongs to.'),
    },
  });
  const errors = useServerErrors(form);
  const create = useMutation({
    mutationFn: (values: typeof form.values) =>
      unwrap(
        api.POST('/api/pages', {
          body: {
            name: values.name.trim(),
            site_id: Number(values.site_id),
            kind: values.kind,
            ...(values.folder_id ? { folder_id: Number(values.folder_id) } : {}),
          },
        }),
      ),
    onSuccess: (page) => {
      void queryClient.invalidateQueries({ queryKey: ['pages'] });
      void navigate(`/pages/${page.id}`);
    },
    onError: errors.showError,
  });
  if (sites.length === 0)
    return (
      <Alert color="blue" title="First, a site">
        Pages belong to a site.{' '}
        <Anchor component={Link} to="/sites" inherit underline="always">
          Create a site
        </Anchor>
        , then come back.
      </Alert>
    );
  const siteFolders = folders.filter((folder) => String(folder.site_id) === form.values.site_id);
  return (
    <FormPanel
      title="Create a page"
      failedTitle="Could not create the page"
      form={form}
      errors={errors}
      onValid={(values) => {
        create.mutate(values);
      }}
    >
      <Group align="flex-start" wrap="wrap">
        <TextInput
          label="Name"
          required
          maxLength={255}
          style={{ flex: '2 1 220px' }}
          {...form.getInputProps('name')}
        />
        <Select
          label="Site"
          required
          allowDeselect={false}
          data={sites.map((site) => ({ value: String(site.id), label: site.name }))}
          style={{ flex: '1 1 160px' }}
          {...form.getInputProps('site_id')}
        />
        <Select
          label="Kind"
          allowDeselect={false}
          data={(kinds.data?.data ?? [{ kind: 'article', title: 'Article' }]).map((t) => ({
            value: t.kind,
            label: t.title,
          }))}
          style={{ flex: '1 1 140px' }}
          {...form.getInputProps('kind')}
        />
        <Select
          label="Folder"
          clearable
          placeholder="At the root"
          data={siteFolders.map((folder) => ({ value: String(folder.id), label: folder.name }))}
          style={{ flex: '1 1 160px' }}
          {...form.getInputProps('folder_id')}
        />
      </Group>
      <Group>
        <Button type="submit" loading={create.isPending}>
          Create page
        </Button>
      </Group>
    </FormPanel>
  );
}
