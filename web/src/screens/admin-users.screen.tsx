import { Alert, Badge, Button, Group, Modal, NumberInput, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, useApi, type paths } from '../api/client';
import { errorMessage } from '../api/errors';

type User = paths['/api/admin/users/{id}']['put']['responses'][200]['content']['application/json']['user'];
type Change = { is_blocked: boolean } | { is_admin: boolean };

interface Action {
  label: string;
  change: Change;
  /** What follows, said in the confirmation. */
  consequence: string;
  danger: boolean;
}

const ACTIONS: Action[] = [
  {
    label: 'Block',
    change: { is_blocked: true },
    consequence:
      'The account loses access at once: its session, API keys and MCP clients are refused. Its blocks, pages and sites are kept.',
    danger: true,
  },
  {
    label: 'Unblock',
    change: { is_blocked: false },
    consequence: 'The account can sign in and use its keys again.',
    danger: false,
  },
  {
    label: 'Make administrator',
    change: { is_admin: true },
    consequence: 'The account can moderate submissions, change the global catalog and block or promote other accounts.',
    danger: true,
  },
  {
    label: 'Remove administrator',
    change: { is_admin: false },
    consequence: 'The account keeps its own work but loses the administrator screens.',
    danger: true,
  },
];

/**
 * Administrators: block, unblock, promote and demote an account by its id.
 * The service has no route that lists or finds accounts, so the id has to be known.
 */
export function AdminUsersScreen() {
  const [id, setId] = useState<number | ''>('');
  const [idError, setIdError] = useState<string | null>(null);
  const [pending, setPending] = useState<{ id: number; action: Action } | null>(null);
  const [changed, setChanged] = useState<User | null>(null);

  const ask = (action: Action) => {
    if (typeof id !== 'number' || id < 1) return setIdError('Enter the id of an account (a whole number from 1).');
    setIdError(null);
    setPending({ id, action });
  };

  return (
    <Stack maw={720}>
      <Title order={1}>Users</Title>
      <Text>
        Block an account or give it administrator rights. The service cannot list accounts yet, so enter the id of the
        account (it is shown to its owner and in the service log).
      </Text>
      <Paper withBorder p="md" component="section" aria-labelledby="change-user-title">
        <Stack gap="sm">
          <Title order={2} size="h3" id="change-user-title">
            Change an account
          </Title>
          <NumberInput
            label="User id"
            required
            min={1}
            allowDecimal={false}
            allowNegative={false}
            maw={240}
            value={id}
            error={idError}
            onChange={(value) => setId(typeof value === 'number' ? value : '')}
          />
          <Group gap="sm">
            {ACTIONS.map((action) => (
              <Button
                key={action.label}
                variant={action.danger ? 'light' : 'default'}
                color={action.danger ? 'red' : undefined}
                onClick={() => ask(action)}
              >
                {action.label}
              </Button>
            ))}
          </Group>
        </Stack>
      </Paper>
      {changed && (
        <Alert color="green" title={`Account ${changed.id} changed`} role="status">
          <Group gap="xs">
            <Text>{changed.email}</Text>
            <Badge color={changed.is_blocked ? 'red' : 'green'} variant="light">
              {changed.is_blocked ? 'blocked' : 'active'}
            </Badge>
            {changed.is_admin && <Badge variant="light">administrator</Badge>}
          </Group>
        </Alert>
      )}
      <ConfirmModal
        pending={pending}
        onClose={() => setPending(null)}
        onDone={(user) => {
          setChanged(user);
          setPending(null);
        }}
      />
    </Stack>
  );
}

function ConfirmModal({
  pending,
  onClose,
  onDone,
}: {
  pending: { id: number; action: Action } | null;
  onClose: () => void;
  onDone: (user: User) => void;
}) {
  const api = useApi();
  const change = useMutation({
    mutationFn: ({ id, body }: { id: number; body: Change }) =>
      unwrap(api.PUT('/api/admin/users/{id}', { params: { path: { id } }, body })),
    onSuccess: ({ user }) => {
      change.reset();
      onDone(user);
    },
  });
  const close = () => {
    change.reset();
    onClose();
  };
  return (
    <Modal
      opened={pending !== null}
      onClose={close}
      title={pending ? `${pending.action.label}: account ${pending.id}?` : ''}
    >
      {pending && (
        <Stack>
          <Text>{pending.action.consequence}</Text>
          {change.isError && (
            <Alert color="red" role="alert">
              {errorMessage(change.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              color={pending.action.danger ? 'red' : undefined}
              loading={change.isPending}
              onClick={() => change.mutate({ id: pending.id, body: pending.action.change })}
            >
              {pending.action.label}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
