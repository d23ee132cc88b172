import { Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { sessionGuardOf, useApi } from '../api/client';
import { ErrorSummary } from '../forms/error-summary';
import { useServerErrors } from '../forms/server-errors';
import { accountErrorMessage } from './messages';
import { sessionKey, useSignIn, type Credentials, type User } from './session';

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
  const signIn = useSignIn();
  const form = useForm<Credentials>({
    mode: 'uncontrolled',
    initialValues: { email: known?.email ?? '', password: '' },
    validate: {
      email: (value) => (value.trim() ? null : 'Enter your email.'),
      password: (value) => (value ? null : 'Enter your password.'),
    },
  });
  const errors = useServerErrors(form);
  const submit = form.onSubmit((values) => {
    errors.clear();
    signIn.mutate(values, {
      onSuccess: () => onSignedIn(),
      onError: (error) => {
        const message = accountErrorMessage(error, 'sign-in');
        errors.showError(message ? new Error(message) : error);
      },
    });
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Sign in again">
      <Stack>
        <Text size="sm">
          You were signed out. Sign in again: what you have typed is kept, and what you were saving is saved once you
          are signed in.
        </Text>
        <ErrorSummary ref={errors.summaryRef} messages={errors.summary} title="Could not sign in" />
        <TextInput
          label="Email"
          type="email"
          autoComplete="username"
          required
          key={form.key('email')}
          {...form.getInputProps('email')}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          data-autofocus
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Not now
          </Button>
          <Button type="submit" loading={signIn.isPending}>
            Sign in
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
