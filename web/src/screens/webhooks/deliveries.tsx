import { Alert, Badge, Button, Code, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, useApi, type paths } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { formatDateTime } from '../../format';

type Delivery =
  paths['/api/webhooks/{id}/deliveries']['get']['responses'][200]['content']['application/json']['data'][number];

export const deliveriesKey = (id: number) => ['webhooks', id, 'deliveries'];

const STATE = {
  delivered: { color: 'green', words: 'Delivered' },
  pending: { color: 'yellow', words: 'Waiting to be tried again' },
  failed: { color: 'red', words: 'Failed' },
} as const;

/**
 * A webhook's delivery log, newest first: each delivery's event, state and
 * tries; opened, the request that was sent and each try with the receiver's
 * status, time, duration and answer; Redeliver sends it again (the same
 * message id, signed anew).
 */
export function Deliveries({ webhookId }: { webhookId: number }) {
  const api = useApi();
  const deliveries = useQuery({
    queryKey: deliveriesKey(webhookId),
    queryFn: () =>
      unwrap(api.GET('/api/webhooks/{id}/deliveries', { params: { path: { id: webhookId }, query: { limit: 50 } } })),
    // A try in flight changes its state: read again while something waits.
    refetchInterval: (query) => (query.state.data?.data.some((d) => d.state === 'pending') ? 2000 : false),
  });
  if (deliveries.isPending) return <Text c="dimmed">Loading the delivery log…</Text>;
  if (deliveries.isError)
    return (
      <Alert color="red" role="alert" title="Cannot read the delivery log">
        {errorMessage(deliveries.error)}
      </Alert>
    );
  const list = deliveries.data.data;
  if (list.length === 0) return <Text size="sm">Nothing sent yet. Send a test to see one here.</Text>;
  return (
    <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Deliveries">
      {list.map((delivery) => (
        <DeliveryItem key={delivery.id} webhookId={webhookId} delivery={delivery} />
      ))}
    </Stack>
  );
}

function DeliveryItem({ webhookId, delivery }: { webhookId: number; delivery: Delivery }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const redeliver = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/webhooks/{id}/deliveries/{did}/redeliver', {
          params: { path: { id: webhookId, did: delivery.id } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(webhookId) }),
  });
  const state = STATE[delivery.state];
  const detailsId = `delivery-${delivery.id}`;
  return (
    <Paper component="li" withBorder p="sm">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs">
          <Group gap="xs">
            <Code>{delivery.event}</Code>
            <Badge color={state.color} variant="light">
              {state.words}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            {formatDateTime(delivery.created_at)}
          </Text>
        </Group>
        <Text size="sm">
          {delivery.attempts === 1 ? '1 try' : `${delivery.attempts} tries`}
          {delivery.response_status !== null ? `, last answer ${delivery.response_status}` : ''}
          {delivery.last_error ? `: ${delivery.last_error}` : ''}
        </Text>
        <Group gap="xs">
          <Button
            size="compact-sm"
            variant="default"
            aria-expanded={open}
            aria-controls={detailsId}
            onClick={() => setOpen(!open)}
          >
            {open ? 'Hide request and answers' : 'Show request and answers'}
          </Button>
          {delivery.state !== 'pending' && (
            <Button size="compact-sm" variant="light" loading={redeliver.isPending} onClick={() => redeliver.mutate()}>
              Redeliver
            </Button>
          )}
        </Group>
        {redeliver.isError && (
          <Alert color="red" role="alert" title="Not sent again">
            {errorMessage(redeliver.error)}
          </Alert>
        )}
        {redeliver.isSuccess && (
          <Text size="sm" role="status">
            Sent again: the log shows the new try.
          </Text>
        )}
        {open && (
          <Stack gap="xs" id={detailsId}>
            <Text size="sm" fw={600}>
              Request body (message id <Code>{delivery.id}</Code>)
            </Text>
            <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {JSON.stringify(delivery.payload, null, 2)}
            </Code>
            <Table.ScrollContainer minWidth={320}>
              <Table withTableBorder captionSide="top" verticalSpacing={4}>
                <Table.Caption>Tries, oldest first</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Try</Table.Th>
                    <Table.Th scope="col">When</Table.Th>
                    <Table.Th scope="col">Answer</Table.Th>
                    <Table.Th scope="col">Took</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {delivery.attempt_log.map((attempt) => (
                    <Table.Tr key={attempt.attempt}>
                      <Table.Td>{attempt.attempt}</Table.Td>
                      <Table.Td>{formatDateTime(attempt.at)}</Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>
                        {attempt.response_status ?? 'none'}
                        {attempt.error ? ` (${attempt.error})` : ''}
                        {attempt.response_excerpt ? (
                          <Code block style={{ whiteSpace: 'pre-wrap' }}>
                            {attempt.response_excerpt}
                          </Code>
                        ) : null}
                      </Table.Td>
                      <Table.Td>{attempt.duration_ms} ms</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
