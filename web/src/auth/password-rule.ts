/**
 * The service's password rule in the words of its refusals (the service's
 * `PASSWORD_RULE`, src/modules/auth/password-rules.ts; a unit test compares
 * the two), shown under the sign-up form's password field.
 */
export const PASSWORD_RULE =
  'Use at least 8 characters, and not a common password, a repeat (aaaaaaaa), a sequence (abcdefgh, 12345678) or the name of this service.';
