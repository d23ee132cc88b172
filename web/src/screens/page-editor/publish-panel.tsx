import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { unwrap, useApi, type paths } from '../../api/client';
import { ApiError, errorMessage } from '../../api/errors';
import { ErrorSummary } from '../../forms/error-summary';
import { useServerErrors } from '../../forms/server-errors';
import { formatDateTime } from '../../format';
import { UnpublishedChanges } from './publication-changes';
import { SchedulePanel } from './schedule-panel';
import type { PageWithBlocks } from './use-page-blocks';

type Status = paths['/api/pages/{id}/publication']['get']['responses'][200]['content']['application/json'];

/** `"3, 7 12"` → `[3, 7, 12]`; null when something is not a whole number. */
export function parseRubricIds(text: string): number[] | null {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  return parts.every((part) => /^\d{1,15}$/.test(part)) ? parts.map(Number) : null;
}

/** The service names a bad rubric as `rubric_ids[1]`: the form has one field for all of them. */
function atRubricField(error: unknown): unknown {
  if (!(error instanceof ApiError) || !error.errors.some((e) => /^rubric_ids\[\d+\]/.test(e.path))) return error;
  const body = (error.body && typeof error.body === 'object' ? error.body : {}) as Record<string, unknown>;
  const errors = error.errors.map((e) => ({ ...e, path: e.path.replace(/^rubric_ids\[\d+\].*$/, 'rubric_ids') }));
  return new ApiError(error.status, { ...body, errors }, error.retryAfter);
}

/**
 * Publication of the page to its site's CMS provider: the status (state,
 * the provider's id and slug, when), Publish the first time and Publish
 * update afterwards. An article asks for its rubric ids (the service cannot
 * list them: they come from the CMS). When the provider fails, the status
 * keeps its message and the time (the page's state is unchanged), so it is
 * shown whenever the page is opened again, until an attempt succeeds.
 * Schedule, beside Publish, publishes at a time of the user's choosing
 * (SchedulePanel: the pending schedule, its cancel, the last run's outcome).
 */
export function PublishPanel({ page }: { page: PageWithBlocks }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const article = page.kind === 'article';
  const status = useQuery({
    queryKey: ['page', page.id, 'publication'],
    queryFn: () => unwrap(api.GET('/api/pages/{id}/publication', { params: { path: { id: page.id } } })),
  });
  const siteId = page.site_id;
  const provider = useQuery({
    queryKey: ['site', siteId, 'provider'],
    queryFn: () => unwrap(api.GET('/api/sites/{id}/provider', { params: { path: { id: siteId! } } })),
    enabled: siteId !== null,
  });
  const published = status.data?.is_published ?? page.is_published;
  const [scheduling, setScheduling] = useState(false);

  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { rubric_ids: '' },
    validate: {
      rubric_ids: (value) => {
        if (!article) return null;
        const ids = parseRubricIds(value);
        if (ids === null) return 'Rubric ids are whole numbers, separated by commas.';
        return ids.length === 0 && !published ? 'An article needs at least one rubric id.' : null;
      },
    },
  });
  const errors = useServerErrors(form);
  const publish = useMutation({
    mutationFn: (text: string) => {
      const ids = article ? (parseRubricIds(text) ?? []) : [];
      const body = ids.length ? { rubric_ids: ids } : {};
      const params = { path: { id: page.id } };
      return unwrap(
        published
          ? api.POST('/api/pages/{id}/publish-update', { params, body })
          : api.POST('/api/pages/{id}/publish', { params, body }),
      );
    },
    onSuccess: (next) => {
      // The rubrics are on the site now: an update keeps them unless new ones are typed.
      form.reset();
      queryClient.setQueryData(['page', page.id, 'publication'], next);
      void queryClient.invalidateQueries({ queryKey: ['page', page.id] });
      void queryClient.invalidateQueries({ queryKey: ['pages'] });
    },
    onError: (error) => {
      // A provider's failure is shown on its own, below, as the status keeps it; field errors go to their field.
      if (error instanceof ApiError && error.status === 502)
        void queryClient.invalidateQueries({ queryKey: ['page', page.id, 'publication'] });
      else errors.showError(atRubricField(error));
    },
  });
  const providerFailed = publish.error instanceof ApiError && publish.error.status === 502;
  // The status's record of the failure once it is read again; the answer's message until then.
  const lastError = status.data?.last_error ?? (providerFailed ? errorMessage(publish.error) : null);
  const noProvider = provider.data && provider.data.type === null;

  return (
    <section aria-labelledby="publication-title">
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={2} size="h3" id="publication-title">
              Publication
            </Title>
            <Badge variant="dot" color={published ? 'green' : 'gray'}>
              {published ? 'Published' : 'Not published'}
            </Badge>
          </Group>
          {status.isError && (
            <Alert color="red" role="alert" title="Cannot read the publication status">
              {errorMessage(status.error)}
            </Alert>
          )}
          {status.data && <PublicationStatus status={status.data} provider={provider.data?.base_url ?? null} />}
          {status.data && !publish.isPending && <UnpublishedChanges page={page} status={status.data} />}
          {siteId === null ? (
            <Alert color="yellow" role="note" title="No site">
              This page has no site any more: choose one in the page’s details before publishing.
            </Alert>
          ) : (
            noProvider && (
              <Alert color="yellow" role="note" title="No provider yet">
                The site has no CMS provider to publish to.{' '}
                <Anchor component={Link} to={`/sites/${siteId}`} inherit>
                  Set the site’s provider
                </Anchor>
                .
              </Alert>
            )
          )}
          {lastError !== null && !publish.isPending && (
            // An alert when it has just happened; a note when the page is opened again.
            <Alert color="red" role={providerFailed ? 'alert' : 'note'} title="The provider refused the publication">
              {status.data?.last_error_at && (
                <Text size="sm">Last attempt: {formatDateTime(status.data.last_error_at, '')}.</Text>
              )}
              <Text size="sm">{lastError}</Text>
              <Text size="sm">
                The page on the site is as it was. Check the site’s provider settings and the rubric ids, then retry.
              </Text>
            </Alert>
          )}
          {publish.isSuccess && (
            <Alert color="green" role="status">
              {published ? 'Published. The provider has the current page.' : 'Published.'}
            </Alert>
          )}
          <form
            noValidate
            aria-label={published ? 'Publish an update' : 'Publish the page'}
            onSubmit={form.onSubmit((values) => {
              errors.clear();
              publish.mutate(values.rubric_ids);
            })}
          >
            <Stack gap="sm">
              <ErrorSummary ref={errors.summaryRef} messages={errors.summary} title="Could not publish" />
              {article && (
                <TextInput
                  label="Rubric ids"
                  required={!published}
                  description={
                    published
                      ? 'Ids from your CMS, separated by commas. Leave empty to keep the rubrics the site has.'
                      : 'Ids of the rubrics in your CMS, separated by commas, e.g. 3, 7.'
                  }
                  inputMode="numeric"
                  key={form.key('rubric_ids')}
                  {...form.getInputProps('rubric_ids')}
                />
              )}
              <Group>
                <Button type="submit" loading={publish.isPending} disabled={siteId === null}>
                  {published ? 'Publish update' : 'Publish'}
                </Button>
                <Button variant="default" disabled={siteId === null} onClick={() => setScheduling(true)}>
                  {status.data?.scheduled_at ? 'Change schedule…' : 'Schedule…'}
                </Button>
              </Group>
            </Stack>
          </form>
          <SchedulePanel
            pageId={page.id}
            status={status.data}
            published={published}
            open={scheduling}
            onOpen={setScheduling}
            body={() => {
              const ids = article ? (parseRubricIds(form.getValues().rubric_ids) ?? []) : [];
              return ids.length ? { rubric_ids: ids } : {};
            }}
          />
        </Stack>
      </Paper>
    </section>
  );
}

function PublicationStatus({ status, provider }: { status: Status; provider: string | null }) {
  if (!status.is_published)
    return <Text size="sm">Not on the site yet. Publishing sends the page’s HTML, CSS and JS to the provider.</Text>;
  return (
    <Table variant="vertical" layout="fixed" withTableBorder aria-label="Publication status">
      <Table.Tbody>
        {provider && (
          <Table.Tr>
            <Table.Th w={160}>Provider</Table.Th>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{provider}</Table.Td>
          </Table.Tr>
        )}
        <Table.Tr>
          <Table.Th w={160}>Id at the provider</Table.Th>
          <Table.Td>{status.external_id ?? '—'}</Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th>Slug at the provider</Table.Th>
          <Table.Td style={{ overflowWrap: 'anywhere' }}>{status.external_slug ?? '—'}</Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th>Published</Table.Th>
          <Table.Td>{formatDateTime(status.published_at, '—')}</Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th>Last update sent</Table.Th>
          <Table.Td>{formatDateTime(status.updated_at, '—')}</Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}
