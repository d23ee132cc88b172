import { Alert, Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { errorMessage } from '../api/errors';
import { useSession, useSignOut } from './session';
import { DocumentTitle } from '../shell/document-title';

/**
 * Routes inside need a session: without one, go to sign-in and come back
 * after (`?next=`). A blocked account sees why instead of the screen.
 */
export function RequireAuth({ children, admin = false }: { children?: ReactNode; admin?: boolean }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading your session" />
      </Center>
    );
  }
  if (session.isError) {
    return (
      <Alert color="red" title="Cannot load your session" role="alert">
        {errorMessage(session.error)}
      </Alert>
    );
  }
  const user = session.data;
  if (!user) {
    const next = location.pathname + location.search;
    return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  if (user.is_blocked) return <Blocked email={user.email} />;
  if (admin && !user.is_admin) {
    return (
      <Alert color="yellow" title="Administrators only" role="alert">
        This screen is for administrators of this installation.
      </Alert>
    );
  }
  return children ?? <Outlet />;
}

function Blocked({ email }: { email: string }) {
  const signOut = useSignOut();
  return (
    <Stack maw={560}>
      <DocumentTitle title={'Account blocked'} />
      <Title order={1}>Your account is blocked</Title>
      <Alert color="red" title="Access suspended" role="alert">
        An administrator blocked the account {email}. While it is blocked you cannot use the library, your pages or your
        API keys. Ask the administrator of this installation to unblock it.
      </Alert>
      <Text size="sm" c="dimmed">
        Your blocks, pages and sites are kept and come back when the account is unblocked.
      </Text>
      <div>
        <Button variant="default" onClick={() => signOut.mutate()} loading={signOut.isPending}>
          Sign out
        </Button>
      </div>
    </Stack>
  );
}
