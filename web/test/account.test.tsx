import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, page, user } from './fake-api';
import { renderApp } from './render';

const signedOut = () => fakeApi({ 'GET /api/auth/me': () => [401, { error: 'Sign-in required.' }] });

async function signIn(email = 'ann@example.com', password = 'secret-pass') {
  await userEvent.type(await screen.findByLabelText(/^email/i, { selector: 'input' }), email);
  await userEvent.type(screen.getByLabelText(/^password/i, { selector: 'input' }), password);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('the auth guard', () => {
  it('sends a visitor without a session to sign-in, remembering where they were going', async () => {
    const { router } = renderApp('/api-keys', signedOut().api);
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(router.state.location.search).toBe('?next=%2Fapi-keys');
  });

  it('shows a blocked account why, instead of the screen', async () => {
    const fake = fakeApi({ 'GET /api/auth/me': () => [200, { user: user({ is_blocked: true }) }] });
    renderApp('/sites', fake.api);
    await screen.findByRole('heading', { name: 'Your account is blocked' });
    expect(screen.getByRole('alert').textContent).toContain('An administrator blocked the account ann@example.com');
    expect(fake.calls.map((c) => c.path)).not.toContain('/api/sites');
  });
});

describe('sign in', () => {
  it('goes on to the page it was asked for', async () => {
    const fake = signedOut();
    fake.on('POST /api/auth/login', () => [200, { user: user() }]);
    fake.on('GET /api/api-keys', () => [200, page([])]);
    const { router } = renderApp('/sign-in?next=%2Fapi-keys', fake.api);
    await signIn();
    await screen.findByRole('heading', { name: 'API keys' });
    expect(router.state.location.pathname).toBe('/api-keys');
    expect(fake.calls.find((c) => c.path === '/api/auth/login')?.body).toEqual({
      email: 'ann@example.com',
      password: 'secret-pass',
    });
  });

  it('never follows a next= that leaves the app', async () => {
    const fake = signedOut();
    fake.on('POST /api/auth/login', () => [200, { user: user() }]);
    const { router } = renderApp('/sign-in?next=%2F%2Fevil.example', fake.api);
    await signIn();
    await screen.findByRole('heading', { name: /Welcome/ });
    expect(router.state.location.pathname).toBe('/');
  });

  it.each([
    [401, { error: 'Invalid email or password.' }, {}, 'The email or the password is wrong'],
    [429, { error: 'Too many failed logins.' }, { 'retry-after': '300' }, 'try again in 5 minutes'],
    [429, { error: 'Too many failed logins.' }, { 'retry-after': '30' }, 'try again in 30 seconds'],
    [403, { error: 'This account is blocked.' }, {}, 'This account is blocked by an administrator'],
    [500, { error: 'Internal server error.' }, {}, 'Internal server error.'],
  ])('explains a %i in words, focused', async (status, body, headers, expected) => {
    const fake = signedOut();
    fake.on('POST /api/auth/login', () => [status, body, headers]);
    renderApp('/sign-in', fake.api);
    await signIn();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(expected);
    await waitFor(() => expect(document.activeElement).toBe(alert));
  });

  it('checks empty fields before asking the service', async () => {
    const fake = signedOut();
    renderApp('/sign-in', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter your email.')).toBeTruthy();
    expect(fake.calls.map((c) => c.path)).not.toContain('/api/auth/login');
  });
});

describe('register', () => {
  it('says when registration is closed', async () => {
    const fake = signedOut();
    fake.on('POST /api/auth/register', () => [403, { error: 'Registration is closed.' }]);
    renderApp('/register', fake.api);
    await userEvent.type(await screen.findByLabelText(/^email/i, { selector: 'input' }), 'new@example.com');
    await userEvent.type(screen.getByLabelText(/^password/i, { selector: 'input' }), 'long-enough');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Registration is closed on this installation');
  });

  it('puts a server error on its field and focuses it', async () => {
    const fake = signedOut();
    fake.on('POST /api/auth/register', () => [
      400,
      { error: 'Invalid request.', errors: [{ path: 'password', message: 'Too common a password.' }] },
    ]);
    renderApp('/register', fake.api);
    await userEvent.type(await screen.findByLabelText(/^email/i, { selector: 'input' }), 'new@example.com');
    await userEvent.type(screen.getByLabelText(/^password/i, { selector: 'input' }), 'password1');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    const message = await screen.findByText('Too common a password.');
    const field = screen.getByLabelText(/^password/i, { selector: 'input' });
    await waitFor(() => expect(document.activeElement).toBe(field));
    // A screen reader reads the message with the field.
    expect(field.getAttribute('aria-describedby')?.split(' ')).toContain(message.id);
  });

  it('signs the new account in', async () => {
    const fake = signedOut();
    fake.on('POST /api/auth/register', () => [201, { user: user({ email: 'new@example.com' }) }]);
    renderApp('/register', fake.api);
    await userEvent.type(await screen.findByLabelText(/^email/i, { selector: 'input' }), 'new@example.com');
    await userEvent.type(screen.getByLabelText(/^password/i, { selector: 'input' }), 'long-enough');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { name: 'Welcome, new@example.com' })).toBeTruthy();
  });
});

describe('sign out', () => {
  it('ends the session and returns to sign-in', async () => {
    const fake = fakeApi({
      'GET /api/auth/me': () => [200, { user: user() }],
      'POST /api/auth/logout': () => [204],
    });
    const { router } = renderApp('/', fake.api);
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(fake.calls.some((c) => c.method === 'POST' && c.path === '/api/auth/logout')).toBe(true);
  });
});
