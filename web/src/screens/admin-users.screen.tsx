import { Alert, Badge, Button, Group, Pagination, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap, useApi, type paths } from '../api/client';
import { errorMessage } from '../api/errors';
import { useSession } from '../auth/session';
import { ConfirmModal } from '../forms/confirm-modal';
import { formatDateTime } from '../format';
import { DocumentTitle } from '../shell/document-title';

type User = paths['/api/admin/users']['get']['responses'][200]['content']['application/json']['data'][number];
type Change = { is_blocked: boolean } | { is_admin: boolean };

interface Action {
  label: string;
  change: Change;
  /** What follows, said in the confirmation. */
  consequence: string;
  danger: boolean;
}

const BLOCK: Action = {
  label: 'Block',
  change: { is_blocked: true },
  consequence:
    'The account loses access at once: its session, API keys and MCP clients are refused. Its blocks, pages and sites are kept.',
  danger: true,
};
const UNBLOCK: Action = {
  label: 'Unblock',
  change: { is_blocked: false },
  consequence: 'The account can sign in and use its keys again.',
  danger: false,
};
const PROMOTE: Action = {
  label: 'Make administrator',
  change: { is_admin: true },
  consequence: 'The account can moderate submissions, change the global catalog and block or promote other accounts.',
  danger: true,
};
const DEMOTE: Action = {
  label: 'Remove administrator',
  change: { is_admin: false },
  consequence: 'The account keeps its own work but loses the administrator screens.',
  danger: true,
};

const PAGE_SIZE = 20;
const usersKey = ['admin', 'users'] as const;

/** Administrators: every account, found by email; block, unblock, promote and demote from the list. */
export function AdminUsersScreen() {
  const api = useApi();
  const [search, setSearch] = useState('');
  const [email] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [pending, setPending] = useState<{ user: User; action: Action } | null>(null);
  const [changed, setChanged] = useState<User | null>(null);
  const users = useQuery({
    queryKey: [...usersKey, { email, page }],
    queryFn: () =>
      unwrap(
        api.GET('/api/admin/users', {
          params: { query: { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE, ...(email ? { email } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const pages = users.data ? Math.max(1, Math.ceil(users.data.total / PAGE_SIZE)) : 1;

  return (
    <Stack maw={1040}>
      <DocumentTitle title={'Users'} />
      <Title order={1}>Users</Title>
      <Text>Every account, oldest first. Block an account or give it administrator rights.</Text>
      <TextInput
        label="Search by email"
        description="Accounts whose email contains this text."
        type="search"
        maw={420}
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(1);
        }}
      />
      {changed && (
        <Alert color="green" title={`${changed.email} changed`} role="status">
          <UserBadges user={changed} />
        </Alert>
      )}
      {users.isPending ? (
        <Text c="dimmed">Loading…</Text>
      ) : users.isError ? (
        <Alert color="red" title="Cannot load the accounts" role="alert">
          {errorMessage(users.error)}
        </Alert>
      ) : users.data.data.length === 0 ? (
        <Text>{email ? `No account’s email contains “${email}”.` : 'No accounts yet.'}</Text>
      ) : (
        <UserList users={users.data.data} onAction={(user, action) => setPending({ user, action })} />
      )}
      {pages > 1 && (
        <Pagination
          total={pages}
          value={page}
          onChange={setPage}
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
        />
      )}
      <ChangeModal
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

function UserBadges({ user }: { user: User }) {
  return (
    <Group gap={6}>
      <Badge color={user.is_blocked ? 'red' : 'green'} variant="light">
        {user.is_blocked ? 'Blocked' : 'Active'}
      </Badge>
      {user.is_admin && <Badge variant="light">Administrator</Badge>}
    </Group>
  );
}

/** The actions that apply to an account; an administrator cannot block or demote themselves, nor touch the system account. */
function UserActions({ user, onAction }: { user: User; onAction: (user: User, action: Action) => void }) {
  const { data: me } = useSession();
  const self = me?.id === user.id;
  const actions = [user.is_blocked ? UNBLOCK : BLOCK, user.is_admin ? DEMOTE : PROMOTE];
  if (self) return <Text size="sm">Your account</Text>;
  if (user.is_system)
    return (
      <Text size="sm" c="dimmed">
        System account: it owns the starter blocks, and no one signs in with it.
      </Text>
    );
  return (
    <Group gap="xs" wrap="wrap">
      {actions.map((action) => (
        <Button
          key={action.label}
          size="xs"
          variant={action.danger ? 'light' : 'default'}
          color={action.danger ? 'red' : undefined}
          aria-label={`${action.label}: ${user.email}`}
          onClick={() => onAction(user, action)}
        >
          {action.label}
        </Button>
      ))}
    </Group>
  );
}

/** A table at desktop widths; at 390 px one card per account, so nothing scrolls sideways. */
function UserList({ users, onAction }: { users: User[]; onAction: (user: User, action: Action) => void }) {
  const narrow = useMediaQuery('(max-width: 48em)');
  if (narrow)
    return (
      <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Accounts">
        {users.map((user) => (
          <Paper component="li" withBorder p="sm" key={user.id}>
            <Stack gap={6}>
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {user.email}
              </Text>
              <UserBadges user={user} />
              <Text size="sm">Joined {formatDateTime(user.created_at)}</Text>
              <UserActions user={user} onAction={onAction} />
            </Stack>
          </Paper>
        ))}
      </Stack>
    );
  return (
    <Table striped verticalSpacing="sm" aria-label="Accounts">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Email</Table.Th>
          <Table.Th scope="col">State</Table.Th>
          <Table.Th scope="col">Joined</Table.Th>
          <Table.Th scope="col">Actions</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {users.map((user) => (
          <Table.Tr key={user.id}>
            <Table.Th scope="row" fw={500} style={{ overflowWrap: 'anywhere' }}>
              {user.email}
            </Table.Th>
            <Table.Td>
              <UserBadges user={user} />
            </Table.Td>
            <Table.Td>{formatDateTime(user.created_at)}</Table.Td>
            <Table.Td>
              <UserActions user={user} onAction={onAction} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function ChangeModal({
  pending,
  onClose,
  onDone,
}: {
  pending: { user: User; action: Action } | null;
  onClose: () => void;
  onDone: (user: User) => void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: ({ id, body }: { id: number; body: Change }) =>
      unwrap(api.PUT('/api/admin/users/{id}', { params: { path: { id } }, body })),
    onSuccess: async ({ user }) => {
      await queryClient.invalidateQueries({ queryKey: usersKey });
      change.reset();
      // A change went through: it was not the system account, which the service never changes.
      onDone({ ...user, is_system: false });
    },
  });
  const close = () => {
    change.reset();
    onClose();
  };
  return (
    <ConfirmModal
      opened={pending !== null}
      title={pending ? `${pending.action.label}: ${pending.user.email}?` : ''}
      confirmLabel={pending?.action.label ?? ''}
      danger={pending?.action.danger ?? true}
      onConfirm={() => pending && change.mutate({ id: pending.user.id, body: pending.action.change })}
      onClose={close}
      pending={change.isPending}
      error={change.error}
    >
      <Text>{pending?.action.consequence}</Text>
    </ConfirmModal>
  );
}
