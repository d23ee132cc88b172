import { PasswordInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useServerErrors } from '../forms/server-errors';
import { accountErrorMessage } from './messages';
import { useSignIn, type Credentials } from './session';

/**
 * The sign-in form's state, shared by the sign-in screen and the dialog that
 * asks again when a session is lost: the same checks, the same sentences for
 * a refusal (`accountErrorMessage`), whatever follows a success.
 */
export function useSignInForm(initialEmail: string, onSignedIn: () => void) {
  const signIn = useSignIn();
  const form = useForm<Credentials>({
    mode: 'uncontrolled',
    initialValues: { email: initialEmail, password: '' },
    validate: {
      email: (value) => (value.trim() ? null : 'Enter your email.'),
      password: (value) => (value ? null : 'Enter your password.'),
    },
  });
  const errors = useServerErrors(form);
  const submit = form.onSubmit((values) => {
    errors.clear();
    signIn.mutate(values, {
      onSuccess: onSignedIn,
      onError: (error) => {
        const message = accountErrorMessage(error, 'sign-in');
        errors.showError(message ? new Error(message) : error);
      },
    });
  });
  return { form, errors, submit, pending: signIn.isPending };
}

/** Email and password, with the autocomplete hints password managers look for. */
export function CredentialFields({
  form,
  focusPassword = false,
}: {
  form: ReturnType<typeof useSignInForm>['form'];
  focusPassword?: boolean;
}) {
  return (
    <>
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
        data-autofocus={focusPassword || undefined}
        key={form.key('password')}
        {...form.getInputProps('password')}
      />
    </>
  );
}
