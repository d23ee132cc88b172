import { ApiError } from '../api/errors';

/** Sign-in and registration failures in words that say what to do next. */
export function accountErrorMessage(error: unknown, action: 'sign-in' | 'register'): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.status === 429) {
    const wait = error.retryAfter;
    const when =
      wait === undefined ? 'in a few minutes' : wait < 90 ? `in ${wait} seconds` : `in ${Math.ceil(wait / 60)} minutes`;
    return `Too many failed attempts. For your account's safety, sign-in is paused: try again ${when}.`;
  }
  if (action === 'sign-in' && error.status === 401) {
    return 'The email or the password is wrong. Check both and try again.';
  }
  if (error.status === 403 && /blocked/i.test(error.message)) {
    return 'This account is blocked by an administrator. Ask the administrator of this installation to unblock it.';
  }
  if (action === 'register' && error.status === 403) {
    return 'Registration is closed on this installation. Ask its administrator for an account.';
  }
  if (action === 'register' && error.status === 409) {
    return 'An account with this email already exists. Sign in instead.';
  }
  return undefined;
}
