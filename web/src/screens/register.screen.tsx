import { Anchor, Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { accountErrorMessage } from '../auth/messages';
import { useRegister, useSession, type Credentials } from '../auth/session';
import { ErrorSummary } from '../forms/error-summary';
import { useServerErrors } from '../forms/server-errors';
import { safeNext } from './sign-in.screen';
import { PASSWORD_RULE } from '../auth/password-rule';
import { DocumentTitle } from '../shell/document-title';

export function RegisterScreen() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const navigate = useNavigate();
  const session = useSession();
  const register = useRegister();
  const form = useForm<Credentials>({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '' },
    validate: {
      email: (value) => (/^\S+@\S+\.\S+$/.test(value.trim()) ? null : 'Enter an email address, like you@example.com.'),
      password: (value) => (value.length >= 8 ? null : 'Use at least 8 characters.'),
    },
  });
  const errors = useServerErrors(form);

  if (session.data) return <Navigate to={next} replace />;

  const submit = form.onSubmit((values) => {
    errors.clear();
    register.mutate(
      { email: values.email.trim(), password: values.password },
      {
        onSuccess: () => void navigate(next, { replace: true }),
        onError: (error) => {
          const message = accountErrorMessage(error, 'register');
          errors.showError(message ? new Error(message) : error);
        },
      },
    );
  });

  return (
    <Stack maw={420} mx="auto" mt="xl">
      <DocumentTitle title={'Create an account'} />
      <Title order={1}>Create an account</Title>
      <Paper withBorder p="lg" component="form" onSubmit={submit} noValidate aria-label="Create an account">
        <Stack>
          <ErrorSummary ref={errors.summaryRef} messages={errors.summary} title="Could not create the account" />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label="Password"
            description={PASSWORD_RULE}
            autoComplete="new-password"
            required
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <Button type="submit" loading={register.isPending}>
            Create account
          </Button>
        </Stack>
      </Paper>
      <Text size="sm">
        Already have an account?{' '}
        <Anchor component={Link} to="/sign-in">
          Sign in
        </Anchor>
      </Text>
    </Stack>
  );
}
