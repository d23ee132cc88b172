import { Alert, Anchor, Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { unwrap, useApi, type paths } from '../api/client';
import { errorMessage } from '../api/errors';
import { formatDateTime } from '../format';
import { BlockBadges, type Block } from './blocks.screen';
import { Adoption } from './block/adoption';
import { BlockNotReady, useBlock } from './block/block-query';
import { Cover } from './block/cover';
import { DocsMarkdown } from './block/docs-markdown';
import { DeleteBlock } from './block/delete-block';
import { Revisions } from './block/revisions';
import { SavedNotice } from './block/saved-notice';
import { Submission } from './block/submission';
import { ResponsiveTable } from '../shell/responsive-table';
import { SandboxedHtml } from './sandboxed-html';
import { DocumentTitle } from '../shell/document-title';

type PlaceholderSchema =
  paths['/api/blocks/{id}/placeholder-schema']['get']['responses'][200]['content']['application/json'];

/** A block's page: what it is for, what it takes, how it looks, and where it is used. */
export function BlockScreen() {
  const id = Number(useParams().id);
  const block = useBlock(id);

  if (!block.isSuccess) return <BlockNotReady block={block} />;
  const data = block.data;
  return (
    <Stack maw={1100}>
      <Anchor component={Link} to="/blocks" size="sm">
        ← Block library
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <DocumentTitle title={data.name} />
          <Title order={1}>{data.name}</Title>
          <BlockBadges block={data} />
        </Stack>
        <BlockActions block={data} />
      </Group>
      <SavedNotice />
      {data.description && <Text>{data.description}</Text>}
      <Version block={data} />
      <Cover block={data} editable={data.scope === 'user'} />
      {data.docs.trim() && (
        <section aria-labelledby="docs-title">
          <Title order={2} size="h3" id="docs-title">
            Documentation
          </Title>
          <DocsMarkdown>{data.docs}</DocsMarkdown>
        </section>
      )}
      <Contract id={id} />
      <Revisions id={id} />
      <Adoption id={id} />
      {data.scope === 'user' && <Submission blockId={id} hasRevision={data.current_revision !== null} />}
    </Stack>
  );
}

function Version({ block }: { block: Block }) {
  const revision = block.current_revision;
  if (!block.version || !revision) return <Text c="dimmed">No revision yet: this block has no template.</Text>;
  return (
    <Text size="sm">
      Version <strong>{`${block.version.major}.${block.version.minor}`}</strong>, saved{' '}
      {formatDateTime(revision.created_at)}
      {revision.changelog ? `: ${revision.changelog}` : ''}
    </Text>
  );
}

function BlockActions({ block }: { block: Block }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const path = { params: { path: { id: block.id } } };
  const favorite = useMutation({
    mutationFn: () =>
      block.is_favorite
        ? unwrap(api.DELETE('/api/blocks/{id}/favorite', path))
        : unwrap(api.PUT('/api/blocks/{id}/favorite', path)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['block', block.id] }),
  });
  const fork = useMutation({
    mutationFn: () => unwrap(api.POST('/api/blocks/{id}/fork', { ...path, body: {} })),
    onSuccess: (forked) => {
      void queryClient.invalidateQueries({ queryKey: ['blocks'] });
      void navigate(`/blocks/${forked.id}`);
    },
  });
  const failure = favorite.error ?? fork.error;
  return (
    <Stack gap="xs" align="flex-end">
      <Group gap="xs">
        {block.scope === 'user' && (
          <Button component={Link} to={`/blocks/${block.id}/edit`}>
            Edit
          </Button>
        )}
        {block.scope === 'user' && <DeleteBlock block={block} />}
        <Button variant="default" loading={favorite.isPending} onClick={() => favorite.mutate()}>
          {block.is_favorite ? 'Remove from favorites' : 'Add to favorites'}
        </Button>
        {block.scope === 'global' && (
          <Button variant="light" loading={fork.isPending} onClick={() => fork.mutate()}>
            Fork
          </Button>
        )}
      </Group>
      {failure && (
        <Alert color="red" role="alert" p="xs">
          {errorMessage(failure)}
        </Alert>
      )}
    </Stack>
  );
}

/** The placeholder schema (fields), the binding slots, and a preview of the example. */
function Contract({ id }: { id: number }) {
  const api = useApi();
  const contract = useQuery({
    queryKey: ['block', id, 'placeholder-schema'],
    queryFn: () => unwrap(api.GET('/api/blocks/{id}/placeholder-schema', { params: { path: { id } } })),
  });
  if (contract.isPending) return <Text c="dimmed">Loading the block’s fields…</Text>;
  if (contract.isError)
    return (
      <Alert color="red" title="Cannot load the block’s fields" role="alert">
        {errorMessage(contract.error)}
      </Alert>
    );
  return (
    <>
      <Fields contract={contract.data} />
      <Slots contract={contract.data} />
      <Preview id={id} example={contract.data.example} />
    </>
  );
}

interface FieldSchema {
  type?: unknown;
  title?: unknown;
  description?: unknown;
}

function Fields({ contract }: { contract: PlaceholderSchema }) {
  const properties = (contract.schema.properties ?? {}) as Record<string, FieldSchema>;
  const required = new Set((contract.schema.required as string[] | undefined) ?? []);
  const names = Object.keys(properties);
  return (
    <section aria-labelledby="fields-title">
      <Title order={2} size="h3" id="fields-title" mb="xs">
        Fields
      </Title>
      {contract.block_type === 'markdown' && (
        <Text size="sm" mb="xs">
          A markdown block: its main content is markdown text; the fields below only shape how it looks.
        </Text>
      )}
      {names.length === 0 ? (
        <Text size="sm">This block takes no values.</Text>
      ) : (
        <ResponsiveTable
          label="Fields"
          rows={names.map((name) => ({ name, field: properties[name] ?? {} }))}
          rowKey={(row) => row.name}
          columns={[
            { header: 'Key', cell: (row) => <Code>{row.name}</Code> },
            {
              header: 'Type',
              cell: ({ field }) =>
                Array.isArray(field.type) ? field.type.join(' or ') : typeof field.type === 'string' ? field.type : '—',
            },
            { header: 'Required', cell: (row) => (required.has(row.name) ? 'Yes' : 'No') },
            {
              header: 'About',
              cell: ({ field }) => [field.title, field.description].filter(Boolean).join(': ') || '—',
            },
          ]}
        />
      )}
    </section>
  );
}

function Slots({ contract }: { contract: PlaceholderSchema }) {
  return (
    <section aria-labelledby="slots-title">
      <Title order={2} size="h3" id="slots-title" mb="xs">
        Live data
      </Title>
      {contract.binding_slots.length === 0 ? (
        <Text size="sm">A static block: it shows only the values you give it.</Text>
      ) : (
        <ResponsiveTable
          label="Live data slots"
          rows={contract.binding_slots}
          rowKey={(slot) => slot.name}
          columns={[
            { header: 'Slot', cell: (slot) => <Code>{slot.name}</Code> },
            { header: 'Allowed sources', cell: (slot) => slot.allowed_sources.join(', ') },
            { header: 'Default', cell: (slot) => (slot.default ? slot.default.source : '—') },
            { header: 'Result type', cell: (slot) => slot.result_type ?? '—' },
          ]}
        />
      )}
    </section>
  );
}

/** Whether an example shows nothing a reader would see: no values, or only empty texts and lists. */
const isBlank = (example: Record<string, unknown>) =>
  Object.values(example).every((v) => v === '' || v === null || (Array.isArray(v) && v.length === 0));

/**
 * The example rendered by the service, with stub data in bound slots. The
 * iframe is sandboxed without same-origin: the block's own JS runs, but can
 * reach neither the app nor its session.
 */
function Preview({ id, example }: { id: number; example: Record<string, unknown> }) {
  const api = useApi();
  const preview = useQuery({
    queryKey: ['block', id, 'preview', example],
    queryFn: () =>
      unwrap(
        api.POST('/api/blocks/{id}/preview', {
          params: { path: { id } },
          body: { placeholder_values: example },
          parseAs: 'text',
        }),
      ),
  });
  return (
    <section aria-labelledby="preview-title">
      <Title order={2} size="h3" id="preview-title" mb="xs">
        Preview of the example
      </Title>
      {isBlank(example) && (
        <Text size="sm" c="dimmed" mb="xs">
          The example gives each required field the simplest value it allows (an empty text) and leaves the others out,
          so this preview may look empty. Give the fields defaults in the block’s editor to see them here.
        </Text>
      )}
      {preview.isPending ? (
        <Text c="dimmed">Rendering…</Text>
      ) : preview.isError ? (
        <Alert color="red" title="The example does not render" role="alert">
          {errorMessage(preview.error)}
        </Alert>
      ) : (
        <Paper withBorder>
          <SandboxedHtml
            title="Preview of the block’s example"
            html={preview.data}
            style={{ width: '100%', height: 360, border: 0, display: 'block' }}
          />
        </Paper>
      )}
    </section>
  );
}
