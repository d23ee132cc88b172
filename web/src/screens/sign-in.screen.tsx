import { Anchor, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../auth/session';
import { CredentialFields, useSignInForm } from '../auth/sign-in-form';
import { ErrorSummary } from '../forms/error-summary';
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
  const { form, errors, submit, pending } = useSignInForm('', () => void navigate(next, { replace: true }));

  if (session.data) return <Navigate to={next} replace />;

  return (
    <Stack maw={420} mx="auto" mt="xl">
      <DocumentTitle title={'Sign in'} />
      <Title order={1}>Sign in</Title>
      <Paper withBorder p="lg" component="form" onSubmit={submit} noValidate aria-label="Sign in">
        <Stack>
          <ErrorSummary ref={errors.summaryRef} messages={errors.summary} title="Could not sign in" />
          <CredentialFields form={form} />
          <Button type="submit" loading={pending}>
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
