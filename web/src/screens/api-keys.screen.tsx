import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, useApi, type paths } from '../api/client';
import { errorMessage } from '../api/errors';
import { FormPanel } from '../forms/form-panel';
import { useServerErrors } from '../forms/server-errors';
import { formatDateTime } from '../format';
import { ConfirmModal } from '../forms/confirm-modal';
import { DocumentTitle } from '../shell/document-title';

type ApiKey = paths['/api/api-keys']['get']['responses'][200]['content']['application/json']['data'][number];
type CreatedKey = paths['/api/api-keys']['post']['responses'][201]['content']['application/json'];

const keysKey = ['api-keys'] as const;

export function ApiKeysScreen() {
  const api = useApi();
  const keys = useQuery({
    queryKey: keysKey,
    queryFn: () => unwrap(api.GET('/api/api-keys', { params: { query: { limit: 200, offset: 0 } } })),
  });
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);

  return (
    <Stack maw={960}>
      <DocumentTitle title={'API keys'} />
      <Title order={1}>API keys</Title>
      <Text>
        A key lets a script or an AI agent use your library, pages and sites through the API at <Code>/api/v1</Code>.
        Each key sees exactly what you see.
      </Text>
      <CreateKeyForm onCreated={setCreated} />
      {created && <CreatedKeyPanel created={created} onDone={() => setCreated(null)} />}
      <section aria-labelledby="keys-title">
        <Title order={2} size="h3" id="keys-title" mb="sm">
          Your keys
        </Title>
        {keys.isPending ? (
          <Text c="dimmed">Loading…</Text>
        ) : keys.isError ? (
          <Alert color="red" title="Cannot load your keys" role="alert">
            {errorMessage(keys.error)}
          </Alert>
        ) : keys.data.data.length === 0 ? (
          <Text>You have no keys yet. Create one above when a program should work for you.</Text>
        ) : (
          <KeyList keys={keys.data.data} onDelete={setDeleting} />
        )}
      </section>
      <UseItPanel example={created?.key} />
      <DeleteKeyModal apiKey={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}

/** A table at desktop widths; at 390 px one card per key, so nothing scrolls sideways. */
function KeyList({ keys, onDelete }: { keys: ApiKey[]; onDelete: (key: ApiKey) => void }) {
  const narrow = useMediaQuery('(max-width: 48em)');
  const deleteButton = (key: ApiKey) => (
    <Button size="xs" variant="light" color="red" onClick={() => onDelete(key)} aria-label={`Delete key ${key.title}`}>
      Delete
    </Button>
  );
  if (narrow)
    return (
      <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Your keys">
        {keys.map((key) => (
          <Paper component="li" withBorder p="sm" key={key.id}>
            <Stack gap={6}>
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {key.title}
              </Text>
              <Text size="sm">
                Prefix <Code>{key.prefix}…</Code>
              </Text>
              <Text size="sm">Created {formatDateTime(key.created_at)}</Text>
              <Text size="sm">Last used {formatDateTime(key.last_used_at, 'never')}</Text>
              <Group>{deleteButton(key)}</Group>
            </Stack>
          </Paper>
        ))}
      </Stack>
    );
  return (
    <Table striped verticalSpacing="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Title</Table.Th>
          <Table.Th scope="col">Prefix</Table.Th>
          <Table.Th scope="col">Created</Table.Th>
          <Table.Th scope="col">Last used</Table.Th>
          <Table.Th scope="col">
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {keys.map((key) => (
          <Table.Tr key={key.id}>
            <Table.Th scope="row" fw={500} style={{ overflowWrap: 'anywhere' }}>
              {key.title}
            </Table.Th>
            <Table.Td>
              <Code>{key.prefix}…</Code>
            </Table.Td>
            <Table.Td>{formatDateTime(key.created_at)}</Table.Td>
            <Table.Td>{formatDateTime(key.last_used_at)}</Table.Td>
            <Table.Td>{deleteButton(key)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedKey) => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { title: '' },
    validate: { title: (value) => (value.trim() ? null : 'Give the key a title, e.g. the program that will use it.') },
  });
  const errors = useServerErrors(form);
  const create = useMutation({
    mutationFn: (title: string) => unwrap(api.POST('/api/api-keys', { body: { title } })),
    onSuccess: (key) => {
      form.reset();
      onCreated(key);
      return queryClient.invalidateQueries({ queryKey: keysKey });
    },
    onError: errors.showError,
  });
  return (
    <FormPanel
      title="Create a key"
      failedTitle="Could not create the key"
      form={form}
      errors={errors}
      onValid={(values) => {
        create.mutate(values.title.trim());
      }}
    >
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label="Title"
          description="What will use it, e.g. “build script” or “Claude”."
          maxLength={255}
          required
          style={{ flex: '1 1 240px' }}
          key={form.key('title')}
          {...form.getInputProps('title')}
        />
        <Button type="submit" loading={create.isPending}>
          Create key
        </Button>
      </Group>
    </FormPanel>
  );
}

function CreatedKeyPanel({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  return (
    <Alert color="green" title={`Key “${created.title}” created`} role="status">
      <Stack gap="sm">
        <Text fw={600}>Copy the key now. It cannot be shown again: only its fingerprint is stored.</Text>
        <Group gap="sm" wrap="nowrap" align="center">
          <Code
            block
            style={{ flex: 1, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
            aria-label="The new API key"
          >
            {created.key}
          </Code>
        </Group>
        <Group gap="sm">
          <CopyButton value={created.key}>
            {({ copied, copy }) => (
              <Button onClick={copy} color={copied ? 'teal' : undefined}>
                {copied ? 'Copied' : 'Copy key'}
              </Button>
            )}
          </CopyButton>
          <Button variant="default" onClick={onDone}>
            I have stored it
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

function UseItPanel({ example }: { example: string | undefined }) {
  const origin = window.location.origin;
  const key = example ?? 'pb_…';
  const curl = `curl -H "Authorization: Bearer ${key}" ${origin}/api/v1/sites`;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="use-it-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="use-it-title">
          Use it
        </Title>
        <Text size="sm">Send the whole key in the Authorization header of every request:</Text>
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <Code block style={{ flex: 1, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {curl}
          </Code>
          <CopyButton value={curl}>
            {({ copied, copy }) => (
              <Button size="xs" variant="default" onClick={copy} aria-label="Copy the curl command">
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Text size="sm">
          AI agents: connect an MCP client to <Code>{origin}/api/v1/mcp</Code> with the same bearer key, or run{' '}
          <Code>npm run mcp</Code> with <Code>PAGEBLOCKS_URL</Code> and <Code>PAGEBLOCKS_API_KEY</Code> set. The full
          description of the API is at{' '}
          <a href="/api/v1/docs" target="_blank" rel="noreferrer">
            /api/v1/docs
          </a>
          .
        </Text>
      </Stack>
    </Paper>
  );
}

function DeleteKeyModal({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/api/api-keys/{id}', { params: { path: { id } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keysKey });
      onClose();
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmModal
      opened={apiKey !== null}
      title="Delete this key?"
      confirmLabel="Delete key"
      onConfirm={() => apiKey && remove.mutate(apiKey.id)}
      onClose={close}
      pending={remove.isPending}
      error={remove.error}
    >
      <Text>
        The key “{apiKey?.title}” (<Code>{apiKey?.prefix}…</Code>) stops working at once: every program that uses it
        gets 401 from its next request. This cannot be undone.
      </Text>
    </ConfirmModal>
  );
}
