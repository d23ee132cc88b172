import { Anchor, Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { accountErrorMessage } from '../auth/messages';
import { useSession, useSignIn, type Credentials } from '../auth/session';
import { ErrorSummary } from '../forms/error-summary';
import { useServerErrors } from '../forms/server-errors';
import { DocumentTitle } from '../shell/document-title';

/** Only a path of this app: `?next=https://elsewhere` must not send the user away. */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function SignInScreen() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const navigate = useNavigate();
  const session = useSession();
  const signIn = useSignIn();
  const form = useForm<Credentials>({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '' },
    validate: {
      email: (value) => (value.trim() ? null : 'Enter your email.'),
      password: (value) => (value ? null : 'Enter your password.'),
    },
  });
  const errors = useServerErrors(form);

  if (session.data) return <Navigate to={next} replace />;

  const submit = form.onSubmit((values) => {
    errors.clear();
    signIn.mutate(values, {
      onSuccess: () => void navigate(next, { replace: true }),
      onError: (error) => {
        const message = accountErrorMessage(error, 'sign-in');
        errors.showError(message ? new Error(message) : error);
      },
    });
  });

  return (
    <Stack maw={420} mx="auto" mt="xl">
      <DocumentTitle title={'Sign in'} />
      <Title order={1}>Sign in</Title>
      <Paper withBorder p="lg" component="form" onSubmit={submit} noValidate aria-label="Sign in">
        <Stack>
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
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <Button type="submit" loading={signIn.isPending}>
            Sign in
          </Button>
        </Stack>
      </Paper>
      <Text size="sm">
        New here?{' '}
        <Anchor component={Link} to={`/register${params.get('next') ? `?next=${encodeURIComponent(next)}` : ''}`}>
          Create an account
        </Anchor>
      </Text>
    </Stack>
  );
}
