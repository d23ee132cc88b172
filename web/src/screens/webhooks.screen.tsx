import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, useApi, type paths } from '../api/client';
import { errorMessage } from '../api/errors';
import { FormPanel } from '../forms/form-panel';
import { useServerErrors } from '../forms/server-errors';
import { formatDateTime } from '../format';
import { DocumentTitle } from '../shell/document-title';
import { Deliveries, deliveriesKey } from './webhooks/deliveries';

type Webhook = paths['/api/webhooks']['get']['responses'][200]['content']['application/json']['data'][number];
type Created = paths['/api/webhooks']['post']['responses'][201]['content']['application/json'];
type EventName = NonNullable<
  paths['/api/webhooks']['post']['requestBody']
>['content']['application/json']['events'][number];

const webhooksKey = ['webhooks'] as const;

/** Each event the service sends, in words. */
const EVENTS: { name: EventName; words: string }[] = [
  { name: 'page.published', words: 'A page was published' },
  { name: 'publication.failed', words: 'A publication failed' },
  { name: 'page.scheduled', words: 'A publication was scheduled' },
  { name: 'page.created', words: 'A page was created' },
  { name: 'page.updated', words: 'A page was changed' },
  { name: 'page.deleted', words: 'A page was deleted' },
  { name: 'page.outdated', words: 'A page uses an older version of a block' },
  { name: 'block.revised', words: 'A block got a new version' },
  { name: 'block.deprecated', words: 'A block was deprecated' },
];

/**
 * Webhooks: URLs told of changes as they happen (a site build, a CDN purge, a
 * chat channel). Create one (its signing secret is shown once), see each
 * endpoint and why one was disabled, enable it again, send a test, and read
 * its delivery log with each request and answer, redelivering what failed.
 */
export function WebhooksScreen() {
  const api = useApi();
  const webhooks = useQuery({
    queryKey: webhooksKey,
    queryFn: () => unwrap(api.GET('/api/webhooks', { params: { query: { limit: 200 } } })),
  });
  const [created, setCreated] = useState<Created | null>(null);
  return (
    <Stack maw={960}>
      <DocumentTitle title="Webhooks" />
      <Title order={1}>Webhooks</Title>
      <Text>
        A webhook tells another service when something changes here, without it having to ask: each event is sent to its
        URL as a signed POST (Standard Webhooks), tried again for about a day when the receiver does not answer.
      </Text>
      <CreateWebhookForm onCreated={setCreated} />
      {created && <SecretPanel url={created.url} secret={created.secret} onDone={() => setCreated(null)} />}
      <section aria-labelledby="webhooks-title">
        <Title order={2} size="h3" id="webhooks-title" mb="sm">
          Your webhooks
        </Title>
        {webhooks.isPending ? (
          <Text c="dimmed">Loading…</Text>
        ) : webhooks.isError ? (
          <Alert color="red" role="alert" title="Cannot load your webhooks">
            {errorMessage(webhooks.error)}
          </Alert>
        ) : webhooks.data.data.length === 0 ? (
          <Text>No webhook yet. Add one above when another service should hear of your changes.</Text>
        ) : (
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Your webhooks">
            {webhooks.data.data.map((webhook) => (
              <WebhookItem key={webhook.id} webhook={webhook} />
            ))}
          </Stack>
        )}
      </section>
    </Stack>
  );
}

function CreateWebhookForm({ onCreated }: { onCreated: (created: Created) => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { url: '', description: '', events: ['page.published'] as string[] },
    validate: {
      url: (value) => (/^https?:\/\/\S+$/i.test(value.trim()) ? null : 'Give the address (http or https) to send to.'),
      events: (value) => (value.length ? null : 'Choose at least one event.'),
    },
  });
  const errors = useServerErrors(form);
  const create = useMutation({
    mutationFn: (values: { url: string; description: string; events: string[] }) =>
      unwrap(
        api.POST('/api/webhooks', {
          body: {
            url: values.url.trim(),
            events: values.events as EventName[],
            ...(values.description.trim() ? { description: values.description.trim() } : {}),
          },
        }),
      ),
    onSuccess: (created) => {
      form.reset();
      onCreated(created);
      return queryClient.invalidateQueries({ queryKey: webhooksKey });
    },
    onError: errors.showError,
  });
  return (
    <FormPanel
      title="Add a webhook"
      failedTitle="Could not add the webhook"
      form={form}
      errors={errors}
      onValid={(values) => {
        create.mutate(values);
      }}
    >
      <TextInput
        label="URL"
        description="Where to send the events: the receiver's address, http or https."
        placeholder="https://example.com/hooks/pageblocks"
        required
        type="url"
        key={form.key('url')}
        {...form.getInputProps('url')}
      />
      <TextInput
        label="Description"
        description="What receives them, e.g. “site build” (optional)."
        key={form.key('description')}
        {...form.getInputProps('description')}
      />
      <Checkbox.Group label="Events" required key={form.key('events')} {...form.getInputProps('events')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={6} mt={6}>
          {EVENTS.map((event) => (
            <Checkbox key={event.name} value={event.name} label={event.words} description={event.name} />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
      <Group>
        <Button type="submit" loading={create.isPending}>
          Add webhook
        </Button>
      </Group>
    </FormPanel>
  );
}

/** The signing secret, shown once (on creation). */
function SecretPanel({ url, secret, onDone }: { url: string; secret: string; onDone: () => void }) {
  return (
    <Alert color="green" role="status" title={`Webhook for ${url} added`}>
      <Stack gap="sm">
        <Text fw={600}>
          Copy its signing secret now. It cannot be shown again; the receiver checks each request's signature with it.
        </Text>
        <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }} aria-label="The signing secret">
          {secret}
        </Code>
        <Group gap="sm">
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button onClick={copy} color={copied ? 'teal' : undefined}>
                {copied ? 'Copied' : 'Copy secret'}
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

function WebhookItem({ webhook }: { webhook: Webhook }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [log, setLog] = useState(false);
  const path = { params: { path: { id: webhook.id } } };
  const test = useMutation({
    mutationFn: () => unwrap(api.POST('/api/webhooks/{id}/test', path)),
    onSuccess: () => {
      setLog(true);
      return queryClient.invalidateQueries({ queryKey: deliveriesKey(webhook.id) });
    },
  });
  const enable = useMutation({
    mutationFn: () => unwrap(api.PUT('/api/webhooks/{id}', { ...path, body: { enabled: true } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
  const failure = test.error ?? enable.error;
  const logId = `webhook-${webhook.id}-log`;
  return (
    <Paper component="li" withBorder p="md" aria-label={webhook.url}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {webhook.url}
          </Text>
          <Badge color={webhook.enabled ? 'green' : 'red'} variant="light">
            {webhook.enabled ? 'Enabled' : 'Disabled'}
          </Badge>
        </Group>
        {webhook.description && <Text size="sm">{webhook.description}</Text>}
        <Text size="sm">
          Sends: {webhook.events.map((name) => EVENTS.find((e) => e.name === name)?.words ?? name).join('; ')}.
        </Text>
        {!webhook.enabled && (
          <Alert color="red" role="note" title="Nothing is sent to it">
            {webhook.disabled_at && <Text size="sm">Disabled {formatDateTime(webhook.disabled_at)}.</Text>}
            {webhook.disabled_reason && <Text size="sm">Why: {webhook.disabled_reason}</Text>}
            <Text size="sm">Enable it again once the receiver works.</Text>
          </Alert>
        )}
        <Group gap="xs">
          <Button
            size="compact-sm"
            variant="default"
            aria-expanded={log}
            aria-controls={logId}
            onClick={() => setLog(!log)}
          >
            {log ? 'Hide delivery log' : 'Delivery log'}
          </Button>
          <Button size="compact-sm" variant="light" loading={test.isPending} onClick={() => test.mutate()}>
            Send a test
          </Button>
          {!webhook.enabled && (
            <Button size="compact-sm" loading={enable.isPending} onClick={() => enable.mutate()}>
              Enable again
            </Button>
          )}
        </Group>
        {failure && (
          <Alert color="red" role="alert" title="That did not go through">
            {errorMessage(failure)}
          </Alert>
        )}
        {log && (
          <section id={logId} aria-label={`Delivery log of ${webhook.url}`}>
            <Deliveries webhookId={webhook.id} />
          </section>
        )}
      </Stack>
    </Paper>
  );
}
