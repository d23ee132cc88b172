import {
  Alert,
  Anchor,
  Button,
  Group,
  MultiSelect,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { unwrap, useApi } from '../../api/client';
import { ApiError, errorMessage } from '../../api/errors';
import { ConfirmModal } from '../../forms/confirm-modal';
import { ErrorSummary } from '../../forms/error-summary';
import { useServerErrors } from '../../forms/server-errors';
import { useUnsavedChanges } from '../../forms/unsaved-changes';
import type { Block } from '../blocks.screen';
import { DocsMarkdown } from '../block/docs-markdown';
import { CodeEditor } from './code-editor';
import { toEditorFields, type EditorField } from './field-editor';
import { FieldsPanel, type FieldsView } from './fields-panel';
import { DocumentTitle } from '../../shell/document-title';
import { ImpactSummary, impactWorthAsking, type UpgradeImpact } from './upgrade-impact';
import { guessChoices, mappingRows, type Choice, type MappingRow, type MigrationStep } from './field-mapping';
import { FieldsRemoved } from './fields-removed';
import type { UpdateBody, UpdateResult } from './save-types';

/** What the block's page shows after a save: the bump it caused and the version it made. */
export interface SavedState {
  saved: { bump: 'created' | 'major' | 'minor' | 'none'; version: { major: number; minor: number } | null };
}

interface Values {
  name: string;
  description: string;
  docs: string;
  block_type: string;
  kind: string;
  tags: string[];
  template: string;
  css: string;
  js: string;
  changelog: string;
  fields: EditorField[];
}

/** `/blocks/new` and `/blocks/:id/edit`: one form for creating and changing a private block. */
export function BlockFormScreen() {
  const id = useParams().id;
  const api = useApi();
  const block = useQuery({
    queryKey: ['block', Number(id)],
    queryFn: () => unwrap(api.GET('/api/blocks/{id}', { params: { path: { id: Number(id) } } })),
    enabled: id !== undefined,
  });
  if (id === undefined) return <BlockForm block={null} />;
  if (block.isPending) return <Text c="dimmed">Loading…</Text>;
  if (block.isError)
    return (
      <Alert color="red" title="Cannot open this block" role="alert">
        {errorMessage(block.error)}
      </Alert>
    );
  if (block.data.scope !== 'user')
    return (
      <Alert color="yellow" title="A global block" role="alert">
        Global blocks are changed by administrators. Fork it to make your own copy.
      </Alert>
    );
  return <BlockForm block={block.data} />;
}

function initialValues(block: Block | null): Values {
  const revision = block?.current_revision;
  return {
    name: block?.name ?? '',
    description: block?.description ?? '',
    docs: block?.docs ?? '',
    block_type: block?.block_type ?? 'schema',
    kind: block?.kind ?? 'content',
    tags: (block?.tags ?? []).map(String),
    template: revision?.template_content ?? '',
    css: revision?.css ?? '',
    js: revision?.js ?? '',
    changelog: '',
    fields: toEditorFields(revision?.schema_content ?? []),
  };
}

function bodyOf(values: Values): UpdateBody {
  return {
    name: values.name,
    description: values.description,
    docs: values.docs,
    block_type: values.block_type === 'none' ? null : (values.block_type as 'schema' | 'markdown'),
    tags: values.tags.map(Number),
    template: values.template,
    css: values.css,
    js: values.js,
    schema_content: values.fields.map((f) => f.def),
    ...(values.changelog.trim() ? { changelog: values.changelog.trim() } : {}),
  };
}

function BlockForm({ block }: { block: Block | null }) {
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useForm<Values>({ initialValues: initialValues(block) });
  const { summary, summaryRef, showError, clear } = useServerErrors(form);
  // Leaving with unsaved changes asks first (another route, a reload, closing the tab).
  const release = useUnsavedChanges(form.isDirty());
  const [fieldsView, setFieldsView] = useState<FieldsView>('visual');
  const [docsView, setDocsView] = useState<string | null>('write');
  // What a save asks before it goes: the fields it removes (mapped to migrations), or what the pages cannot take.
  const [warning, setWarning] = useState<{
    mapping: { rows: MappingRow[]; initial: Choice[]; holding: Map<string, number> | null; version: string } | null;
    impact: UpgradeImpact | null;
    values: Values;
  } | null>(null);
  const tags = useQuery({
    queryKey: ['tags'],
    queryFn: () => unwrap(api.GET('/api/tags', { params: { query: { limit: 200, offset: 0 } } })),
  });

  const onFailure = (error: unknown) => {
    // Field errors are shown in the visual editor, which must be on screen to take them.
    if (error instanceof ApiError && error.errors.some((e) => e.path.startsWith('schema_content[')))
      setFieldsView('visual');
    showError(error);
  };
  const done = (saved: SavedState['saved'], blockId: number) => {
    release();
    void queryClient.invalidateQueries({ queryKey: ['blocks'] });
    void queryClient.invalidateQueries({ queryKey: ['block', blockId] });
    void navigate(`/blocks/${blockId}`, { state: { saved } satisfies SavedState });
  };

  const create = useMutation({
    mutationFn: (values: Values) =>
      unwrap(
        api.POST('/api/blocks', { body: { ...bodyOf(values), name: values.name, kind: values.kind as 'content' } }),
      ),
    onSuccess: (created) => done({ bump: 'created', version: created.version }, created.id),
    onError: onFailure,
  });
  const put = (values: Values, dryRun: boolean, migrations?: MigrationStep[]) =>
    unwrap(
      api.PUT('/api/blocks/{id}', {
        params: { path: { id: block!.id }, query: dryRun ? { dry_run: 1 } : {} },
        body: { ...bodyOf(values), ...(migrations && { migrations }) },
      }),
    );
  const save = useMutation({
    mutationFn: ({ values, migrations }: { values: Values; migrations?: MigrationStep[] }) =>
      put(values, false, migrations),
    onSuccess: (result: UpdateResult) => {
      setWarning(null);
      done({ bump: result.version_bump, version: result.block.version }, result.block.id);
    },
    onError: (error) => {
      // A refused step of the field mapping is shown at its row, in the dialog, which stays.
      if (error instanceof ApiError && error.errors.some((e) => e.path.startsWith('migrations'))) return;
      setWarning(null);
      onFailure(error);
    },
  });
  // A dry run first: a save that will be major, or that some instances could not take, asks, with what it means.
  const check = useMutation({
    mutationFn: (values: Values) => put(values, true),
    onSuccess: (result, values) => {
      const removed = result.version_bump === 'major' ? result.removed_fields : [];
      const holding = result.migration_impact
        ? new Map(result.migration_impact.holding.map((h) => [h.field, h.instances]))
        : null;
      const rows = mappingRows(removed, block?.current_revision?.schema_content ?? [], bodyOf(values).schema_content);
      const version = `${result.block.version?.major ?? 0}.${result.block.version?.minor ?? 0}`;
      const mapping = removed.length ? { rows, initial: guessChoices(rows, values.fields), holding, version } : null;
      save.reset();
      if (mapping || impactWorthAsking(result.upgrade_impact))
        setWarning({ mapping, impact: result.upgrade_impact, values });
      else save.mutate({ values });
    },
    onError: onFailure,
  });

  const submit = form.onSubmit((values) => {
    clear();
    if (block) check.mutate(values);
    else create.mutate(values);
  });
  const title = block ? `Edit ${block.name}` : 'New block';

  return (
    <Stack maw={1100}>
      <Anchor component={Link} to={block ? `/blocks/${block.id}` : '/blocks'} size="sm">
        ← {block ? block.name : 'Block library'}
      </Anchor>
      <DocumentTitle title={title} />
      <Title order={1}>{title}</Title>
      {block?.version && (
        <Text size="sm">
          Now at version {block.version.major}.{block.version.minor}. Changing the template, CSS, JS or fields makes a
          new version: removing or renaming a field is a major change.
        </Text>
      )}
      <form onSubmit={submit} noValidate aria-label={title}>
        <Stack>
          <ErrorSummary ref={summaryRef} messages={summary} />
          <Paper withBorder p="md" component="section" aria-labelledby="about-title">
            <Title order={2} size="h3" id="about-title" mb="sm">
              About
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput label="Block name" required {...form.getInputProps('name')} />
              <MultiSelect
                label="Tags"
                data={(tags.data?.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))}
                searchable
                clearable
                {...form.getInputProps('tags')}
              />
              <Select
                label="Block type"
                description="Markdown: the main content is markdown text"
                data={[
                  { value: 'schema', label: 'Schema (values follow the fields)' },
                  { value: 'markdown', label: 'Markdown' },
                  { value: 'none', label: 'Not set' },
                ]}
                allowDeselect={false}
                {...form.getInputProps('block_type')}
              />
              <Select
                label="Kind"
                description={block ? 'Fixed at creation' : 'A layout holds other blocks'}
                data={[
                  { value: 'content', label: 'Content' },
                  { value: 'layout', label: 'Layout' },
                ]}
                disabled={block !== null}
                allowDeselect={false}
                {...form.getInputProps('kind')}
              />
            </SimpleGrid>
            <Textarea
              mt="sm"
              label="Description"
              description="One or two sentences for the library"
              resize="vertical"
              rows={3}
              {...form.getInputProps('description')}
            />
          </Paper>

          <Paper withBorder p="md" component="section" aria-labelledby="docs-title">
            <Title order={2} size="h3" id="docs-title" mb="sm">
              Documentation
            </Title>
            <Tabs value={docsView} onChange={setDocsView} keepMounted={false}>
              <Tabs.List aria-label="Documentation views">
                <Tabs.Tab value="write">Write</Tabs.Tab>
                <Tabs.Tab value="preview">Preview</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="write" pt="sm">
                <CodeEditor
                  label="Docs (markdown)"
                  language="markdown"
                  value={form.values.docs}
                  onChange={(value) => form.setFieldValue('docs', value)}
                  error={form.errors.docs as string | undefined}
                  path="docs"
                />
              </Tabs.Panel>
              <Tabs.Panel value="preview" pt="sm">
                {form.values.docs.trim() ? (
                  <DocsMarkdown>{form.values.docs}</DocsMarkdown>
                ) : (
                  <Text c="dimmed">Nothing written yet.</Text>
                )}
              </Tabs.Panel>
            </Tabs>
          </Paper>

          <Paper withBorder p="md" component="section" aria-labelledby="code-title">
            <Title order={2} size="h3" id="code-title" mb="sm">
              Template, CSS and JS
            </Title>
            <Stack>
              <CodeEditor
                label="Template"
                description="HTML with Liquid: {{ title }} shows the field title"
                language="liquid"
                value={form.values.template}
                onChange={(value) => form.setFieldValue('template', value)}
                error={form.errors.template as string | undefined}
                path="template"
                minHeight="10rem"
              />
              <CodeEditor
                label="CSS"
                language="css"
                value={form.values.css}
                onChange={(value) => form.setFieldValue('css', value)}
                error={form.errors.css as string | undefined}
                path="css"
              />
              <CodeEditor
                label="JS"
                language="javascript"
                value={form.values.js}
                onChange={(value) => form.setFieldValue('js', value)}
                error={form.errors.js as string | undefined}
                path="js"
              />
            </Stack>
          </Paper>

          <Paper withBorder p="md" component="section" aria-labelledby="fields-title">
            <Title order={2} size="h3" id="fields-title" mb="sm">
              Fields
            </Title>
            <FieldsPanel
              fields={form.values.fields}
              onChange={(fields) => form.setFieldValue('fields', fields)}
              errors={form.errors}
              view={fieldsView}
              onViewChange={setFieldsView}
            />
          </Paper>

          <TextInput
            label="What changed"
            description="Shown in the revision history when the save makes a new version"
            {...form.getInputProps('changelog')}
          />
          <Group>
            <Button type="submit" loading={create.isPending || check.isPending || save.isPending}>
              {block ? 'Save changes' : 'Create block'}
            </Button>
            <Button variant="default" component={Link} to={block ? `/blocks/${block.id}` : '/blocks'}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
      {warning?.mapping && (
        <FieldsRemoved
          {...warning.mapping}
          instances={warning.impact?.instances ?? 0}
          mapping={{
            dryRun: (migrations) => put(warning.values, true, migrations),
            save: (migrations) => save.mutate({ values: warning.values, migrations }),
            pending: save.isPending,
            error: save.error,
            reset: save.reset,
          }}
          onClose={() => setWarning(null)}
        />
      )}
      <ConfirmModal
        opened={warning !== null && warning.mapping === null}
        title="Some pages could not take this version"
        confirmLabel="Save anyway"
        pending={save.isPending}
        error={save.error}
        onClose={() => setWarning(null)}
        onConfirm={() => warning && save.mutate({ values: warning.values })}
      >
        {warning?.impact && warning.impact.behind > 0 && <ImpactSummary impact={warning.impact} />}
      </ConfirmModal>
    </Stack>
  );
}
