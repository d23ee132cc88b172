import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { sessionGuardOf, useApi } from '../api/client';
import { ErrorSummary } from '../forms/error-summary';
import { sessionKey, type User } from './session';
import { CredentialFields, useSignInForm } from './sign-in-form';

/**
 * Asks to sign in again when the session is lost while the app is open (the
 * service answered 401). Nothing on screen is left: the form being typed stays
 * as it is behind the dialog, and the request that met the 401 (a save) goes
 * again once signed in (session-guard.ts), so it is saved.
 */
export function SessionLostDialog() {
  const api = useApi();
  const guard = sessionGuardOf(api);
  const [lost, setLost] = useState(guard.lost);
  useEffect(() => guard.onChange(setLost), [guard]);
  return (
    <Modal
      opened={lost}
      onClose={() => guard.cancel()}
      title="Sign in to go on"
      centered
      closeOnClickOutside={false}
      // Above any other dialog: it interrupts whatever was being done.
      zIndex={1000}
    >
      {lost && <SignInAgain onSignedIn={() => guard.signedIn()} onCancel={() => guard.cancel()} />}
    </Modal>
  );
}

function SignInAgain({ onSignedIn, onCancel }: { onSignedIn: () => void; onCancel: () => void }) {
  const queryClient = useQueryClient();
  const known = queryClient.getQueryData<User | null>(sessionKey);
  const { form, errors, submit, pending } = useSignInForm(known?.email ?? '', onSignedIn);
  return (
    <form onSubmit={submit} noValidate aria-label="Sign in again">
      <Stack>
        <Text size="sm">
          You were signed out. Sign in again: what you have typed is kept, and what you were saving is saved once you
          are signed in.
        </Text>
        <ErrorSummary ref={errors.summaryRef} messages={errors.summary} title="Could not sign in" />
        <CredentialFields form={form} focusPassword />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Not now
          </Button>
          <Button type="submit" loading={pending}>
            Sign in
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
