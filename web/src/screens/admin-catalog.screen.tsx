import {
  Alert,
  Button,
  Group,
  Modal,
  Paper,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, useApi, type Api, type paths } from '../api/client';
import { errorMessage } from '../api/errors';
import { ErrorSummary } from '../forms/error-summary';
import { useServerErrors } from '../forms/server-errors';

type Values = Record<string, string>;
type Body = Record<string, unknown>;

interface Field {
  name: string;
  label: string;
  description?: string;
  /** long: a textarea; json: a textarea parsed before sending. */
  kind?: 'text' | 'long' | 'json';
  /** Chosen at creation and never changed (an id). */
  createOnly?: boolean;
  required?: boolean;
}

/**
 * One list of the global catalog. Rows become form strings (`toValues`);
 * `create`/`update` get the parsed values. No `update`/`remove`: the service
 * has no such route.
 */
interface Section<Row> {
  id: string;
  title: string;
  intro: string;
  /** The singular, in buttons and dialogs. */
  noun: string;
  list: (api: Api) => Promise<Row[]>;
  key: (row: Row) => string | number;
  name: (row: Row) => string;
  columns: { label: string; value: (row: Row) => string }[];
  fields: Field[];
  toValues: (row: Row) => Values;
  create: (api: Api, body: Body) => Promise<unknown>;
  update?: (api: Api, row: Row, body: Body) => Promise<unknown>;
  remove?: (api: Api, row: Row) => Promise<unknown>;
  /** What deleting takes with it. */
  removeConsequence: string;
}

type Tag = { id: number; name: string; slug: string };
type PageType = { kind: string; title: string };
type ResultType =
  paths['/api/admin/data-result-types']['get']['responses'][200]['content']['application/json']['data'][number];
type DataSource =
  paths['/api/admin/data-sources']['get']['responses'][200]['content']['application/json']['data'][number];
type Layout = paths['/api/layouts']['get']['responses'][200]['content']['application/json']['data'][number];
// The bodies are built from the fields below; the service checks them and names a wrong field in errors[].
type TagBody = { name: string; slug?: string };

const all = { params: { query: { limit: 200, offset: 0 } } };
const json = (value: unknown) => JSON.stringify(value, null, 2);
const idField = (noun: string): Field => ({
  name: 'id',
  label: 'Id',
  description: `Lowercase letters, digits, “_”, “.” and “-”; the ${noun} keeps it for good.`,
  createOnly: true,
  required: true,
});
const tagFields: Field[] = [
  { name: 'name', label: 'Name', required: true },
  {
    name: 'slug',
    label: 'Slug',
    description: 'Lowercase letters and digits joined by hyphens; made from the name when empty.',
  },
];

const tags: Section<Tag> = {
  id: 'tags',
  title: 'Block tags',
  intro: 'Tags of blocks: the library filters by them.',
  noun: 'tag',
  list: async (api) => (await unwrap(api.GET('/api/admin/tags', all))).data,
  key: (t) => t.id,
  name: (t) => t.name,
  columns: [{ label: 'Slug', value: (t) => t.slug }],
  fields: tagFields,
  toValues: (t) => ({ name: t.name, slug: t.slug }),
  create: (api, body) => unwrap(api.POST('/api/admin/tags', { body: body as TagBody })),
  update: (api, t, body) =>
    unwrap(api.PUT('/api/admin/tags/{id}', { params: { path: { id: t.id } }, body: body as TagBody })),
  remove: (api, t) => unwrap(api.DELETE('/api/admin/tags/{id}', { params: { path: { id: t.id } } })),
  removeConsequence: 'Blocks that carry it lose it.',
};

const layoutTags: Section<Tag> = {
  ...tags,
  id: 'layout-tags',
  title: 'Layout tags',
  intro: 'Tags of layouts.',
  noun: 'layout tag',
  list: async (api) => (await unwrap(api.GET('/api/admin/layout-tags', all))).data,
  create: (api, body) => unwrap(api.POST('/api/admin/layout-tags', { body: body as TagBody })),
  update: (api, t, body) =>
    unwrap(api.PUT('/api/admin/layout-tags/{id}', { params: { path: { id: t.id } }, body: body as TagBody })),
  remove: (api, t) => unwrap(api.DELETE('/api/admin/layout-tags/{id}', { params: { path: { id: t.id } } })),
  removeConsequence: 'Layouts that carry it lose it.',
};

const pageTypes: Section<PageType> = {
  id: 'page-types',
  title: 'Page types',
  intro: 'The kinds a page can have.',
  noun: 'page type',
  list: async (api) => (await unwrap(api.GET('/api/admin/page-types', all))).data,
  key: (p) => p.kind,
  name: (p) => p.title,
  columns: [{ label: 'Kind', value: (p) => p.kind }],
  fields: [
    {
      name: 'kind',
      label: 'Kind',
      description: 'The value of a page’s kind; fixed once created.',
      createOnly: true,
      required: true,
    },
    { name: 'title', label: 'Title', required: true },
  ],
  toValues: (p) => ({ kind: p.kind, title: p.title }),
  create: (api, body) => unwrap(api.POST('/api/admin/page-types', { body: body as PageType })),
  update: (api, p, body) =>
    unwrap(
      api.PUT('/api/admin/page-types/{kind}', { params: { path: { kind: p.kind } }, body: body as { title: string } }),
    ),
  remove: (api, p) => unwrap(api.DELETE('/api/admin/page-types/{kind}', { params: { path: { kind: p.kind } } })),
  removeConsequence: 'Built-in page types cannot be deleted.',
};

type ResultTypeBody = paths['/api/admin/data-result-types']['post']['requestBody']['content']['application/json'];
const resultTypes: Section<ResultType> = {
  id: 'result-types',
  title: 'Result types',
  intro: 'The shapes of data that data sources return, with a sample that previews show.',
  noun: 'result type',
  list: async (api) => (await unwrap(api.GET('/api/admin/data-result-types', all))).data,
  key: (r) => r.id,
  name: (r) => r.title,
  columns: [{ label: 'Id', value: (r) => r.id }],
  fields: [
    idField('result type'),
    { name: 'title', label: 'Title', required: true },
    { name: 'schema_json', label: 'JSON Schema of the data', kind: 'json', required: true },
    {
      name: 'stub',
      label: 'Sample data (JSON)',
      description: 'Valid against the schema.',
      kind: 'json',
      required: true,
    },
  ],
  toValues: (r) => ({ id: r.id, title: r.title, schema_json: json(r.schema_json), stub: json(r.stub) }),
  create: (api, body) => unwrap(api.POST('/api/admin/data-result-types', { body: body as ResultTypeBody })),
  update: (api, r, body) =>
    unwrap(api.PUT('/api/admin/data-result-types/{id}', { params: { path: { id: r.id } }, body })),
  remove: (api, r) => unwrap(api.DELETE('/api/admin/data-result-types/{id}', { params: { path: { id: r.id } } })),
  removeConsequence: 'The service refuses while a data source returns it.',
};

type DataSourceBody = paths['/api/admin/data-sources']['post']['requestBody']['content']['application/json'];
const dataSources: Section<DataSource> = {
  id: 'data-sources',
  title: 'Data sources',
  intro: 'Where block bindings take their data from, and the params a binding may pass.',
  noun: 'data source',
  list: async (api) => (await unwrap(api.GET('/api/admin/data-sources', all))).data,
  key: (s) => s.id,
  name: (s) => s.title,
  columns: [
    { label: 'Id', value: (s) => s.id },
    { label: 'Result type', value: (s) => s.result_type_id },
  ],
  fields: [
    idField('data source'),
    { name: 'title', label: 'Title', required: true },
    { name: 'description', label: 'Description', kind: 'long' },
    { name: 'result_type_id', label: 'Result type id', description: 'See the result types tab.', required: true },
    {
      name: 'params_schema',
      label: 'Params schema (JSON)',
      description: 'A JSON Schema object with "additionalProperties": false; its properties are the allowed params.',
      kind: 'json',
      required: true,
    },
  ],
  toValues: (s) => ({
    id: s.id,
    title: s.title,
    description: s.description,
    result_type_id: s.result_type_id,
    params_schema: json(s.params_schema),
  }),
  create: (api, body) => unwrap(api.POST('/api/admin/data-sources', { body: body as DataSourceBody })),
  update: (api, s, body) => unwrap(api.PUT('/api/admin/data-sources/{id}', { params: { path: { id: s.id } }, body })),
  remove: (api, s) => unwrap(api.DELETE('/api/admin/data-sources/{id}', { params: { path: { id: s.id } } })),
  removeConsequence: 'The service refuses while a block revision binds to it.',
};

const layouts: Section<Layout> = {
  id: 'layouts',
  title: 'Layouts',
  intro: 'Global page layouts: everyone can use and fork them.',
  noun: 'layout',
  list: async (api) => (await unwrap(api.GET('/api/layouts', all))).data.filter((l) => l.scope === 'global'),
  key: (l) => l.id,
  name: (l) => l.name,
  columns: [{ label: 'Forks', value: (l) => String(l.fork_count) }],
  fields: [
    { name: 'name', label: 'Name', required: true },
    { name: 'template', label: 'Template (Liquid)', kind: 'long' },
    { name: 'css', label: 'CSS', kind: 'long' },
    { name: 'js', label: 'JavaScript', kind: 'long' },
  ],
  toValues: (l) => ({ name: l.name, template: l.template, css: l.css, js: l.js }),
  create: (api, body) => unwrap(api.POST('/api/admin/layouts', { body: body as { name: string } })),
  // A global layout is changed and deleted on the ordinary routes, which let administrators do it.
  update: (api, l, body) => unwrap(api.PUT('/api/layouts/{id}', { params: { path: { id: l.id } }, body })),
  remove: (api, l) => unwrap(api.DELETE('/api/layouts/{id}', { params: { path: { id: l.id } } })),
  removeConsequence: 'Its forks stay, as their owners’ own layouts.',
};

/** Administrators: the global catalog, one tab per list. */
export function AdminCatalogScreen() {
  return (
    <Stack maw={1040}>
      <Title order={1}>Catalog</Title>
      <Tabs defaultValue="tags" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="tags">Block tags</Tabs.Tab>
          <Tabs.Tab value="layout-tags">Layout tags</Tabs.Tab>
          <Tabs.Tab value="page-types">Page types</Tabs.Tab>
          <Tabs.Tab value="data-sources">Data sources</Tabs.Tab>
          <Tabs.Tab value="result-types">Result types</Tabs.Tab>
          <Tabs.Tab value="layouts">Layouts</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="tags" pt="md">
          <CatalogSection section={tags} />
        </Tabs.Panel>
        <Tabs.Panel value="layout-tags" pt="md">
          <CatalogSection section={layoutTags} />
        </Tabs.Panel>
        <Tabs.Panel value="page-types" pt="md">
          <CatalogSection section={pageTypes} />
        </Tabs.Panel>
        <Tabs.Panel value="data-sources" pt="md">
          <CatalogSection section={dataSources} />
        </Tabs.Panel>
        <Tabs.Panel value="result-types" pt="md">
          <CatalogSection section={resultTypes} />
        </Tabs.Panel>
        <Tabs.Panel value="layouts" pt="md">
          <CatalogSection section={layouts} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function CatalogSection<Row>({ section }: { section: Section<Row> }) {
  const api = useApi();
  const rows = useQuery({ queryKey: ['admin', 'catalog', section.id], queryFn: () => section.list(api) });
  const [editing, setEditing] = useState<Row | null>(null);
  const [removing, setRemoving] = useState<Row | null>(null);
  return (
    <Stack>
      <Text>{section.intro}</Text>
      <Paper withBorder p="md">
        <EntryForm section={section} row={null} />
      </Paper>
      {rows.isPending ? (
        <Text c="dimmed">Loading…</Text>
      ) : rows.isError ? (
        <Alert color="red" title={`Cannot load the ${section.title.toLowerCase()}`} role="alert">
          {errorMessage(rows.error)}
        </Alert>
      ) : rows.data.length === 0 ? (
        <Text>None yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table striped verticalSpacing="sm" aria-label={section.title}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                {section.columns.map((c) => (
                  <Table.Th scope="col" key={c.label}>
                    {c.label}
                  </Table.Th>
                ))}
                <Table.Th scope="col">
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.data.map((row) => (
                <Table.Tr key={section.key(row)}>
                  <Table.Th scope="row" fw={500}>
                    {section.name(row)}
                  </Table.Th>
                  {section.columns.map((c) => (
                    <Table.Td key={c.label}>{c.value(row)}</Table.Td>
                  ))}
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      {section.update && (
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => setEditing(row)}
                          aria-label={`Edit ${section.noun} ${section.name(row)}`}
                        >
                          Edit
                        </Button>
                      )}
                      {section.remove && (
                        <Button
                          size="xs"
                          variant="light"
                          color="red"
                          onClick={() => setRemoving(row)}
                          aria-label={`Delete ${section.noun} ${section.name(row)}`}
                        >
                          Delete
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === null ? '' : `Edit ${section.noun} “${section.name(editing)}”`}
        size="lg"
      >
        {editing !== null && <EntryForm section={section} row={editing} onSaved={() => setEditing(null)} />}
      </Modal>
      <RemoveModal section={section} row={removing} onClose={() => setRemoving(null)} />
    </Stack>
  );
}

/** Create (row null) or edit a row. JSON fields are parsed here, so a typo stays on its field. */
function EntryForm<Row>({ section, row, onSaved }: { section: Section<Row>; row: Row | null; onSaved?: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const fields = section.fields.filter((f) => row === null || !f.createOnly);
  const empty: Values = Object.fromEntries(section.fields.map((f) => [f.name, '']));
  const form = useForm<Values>({
    mode: 'uncontrolled',
    initialValues: row === null ? empty : section.toValues(row),
    validate: Object.fromEntries(
      fields.map((f) => [
        f.name,
        (value: string) => {
          if (f.required && !value.trim()) return `${f.label} is required.`;
          if (f.kind === 'json' && value.trim()) {
            try {
              JSON.parse(value);
            } catch {
              return 'This is not valid JSON.';
            }
          }
          return null;
        },
      ]),
    ),
  });
  const errors = useServerErrors(form);
  const save = useMutation({
    mutationFn: (body: Body) => (row === null ? section.create(api, body) : section.update!(api, row, body)),
    onSuccess: async () => {
      if (row === null) form.reset();
      await queryClient.invalidateQueries({ queryKey: ['admin', 'catalog', section.id] });
      onSaved?.();
    },
    onError: errors.showError,
  });
  const action = row === null ? `Create ${section.noun}` : 'Save';
  return (
    <form
      aria-label={row === null ? `Create a ${section.noun}` : `Edit ${section.noun}`}
      noValidate
      onSubmit={form.onSubmit((values) => {
        errors.clear();
        const body: Body = {};
        for (const f of fields) {
          const value = values[f.name] ?? '';
          // An empty optional text field is left to the service's default (a slug made from the name).
          if (!f.required && !value.trim() && f.kind !== 'long' && row === null) continue;
          body[f.name] = f.kind === 'json' ? JSON.parse(value) : f.kind === 'long' ? value : value.trim();
        }
        save.mutate(body);
      })}
    >
      <Stack gap="sm">
        {row === null && (
          <Title order={2} size="h4">
            New {section.noun}
          </Title>
        )}
        <ErrorSummary ref={errors.summaryRef} messages={errors.summary} title={`Could not save the ${section.noun}`} />
        {fields.map((f) =>
          f.kind === 'json' || f.kind === 'long' ? (
            <Textarea
              key={form.key(f.name)}
              label={f.label}
              description={f.description}
              required={f.required}

              rows={f.kind === 'json' ? 6 : 3}
              styles={f.kind === 'json' ? { input: { fontFamily: 'monospace' } } : undefined}
              {...form.getInputProps(f.name)}
            />
          ) : (
            <TextInput
              key={form.key(f.name)}
              label={f.label}
              description={f.description}
              required={f.required}
              {...form.getInputProps(f.name)}
            />
          ),
        )}
        <Group>
          <Button type="submit" loading={save.isPending}>
            {action}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function RemoveModal<Row>({ section, row, onClose }: { section: Section<Row>; row: Row | null; onClose: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (target: Row) => section.remove!(api, target),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['admin', 'catalog', section.id] });
      close();
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Modal opened={row !== null} onClose={close} title={`Delete this ${section.noun}?`}>
      {row !== null && (
        <Stack>
          <Text>
            “{section.name(row)}” is deleted for every user. {section.removeConsequence} This cannot be undone.
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
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(row)}>
              Delete {section.noun}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
