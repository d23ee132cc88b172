import type { Clock } from '../../shared/clock.js';
import { AppError, fieldError, forbidden, rateLimited, unauthenticated } from '../../shared/errors.js';
import { randomHex, sha256Hex } from '../../shared/secrets.js';
import type { AuthThrottle } from './auth-throttle.js';
import { passwordProblem } from './password-rules.js';
import { DUMMY_HASH, hashPassword, verifyPassword } from './passwords.js';
import { normalizeEmail, type SessionsRepository, type User, type UsersRepository } from './auth.js';

export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;
const INVALID_LOGIN = 'Invalid email or password.';

export interface SignedIn {
  user: User;
  /** The session secret: goes into the cookie, only its hash is stored. */
  sessionToken: string;
  expiresAt: Date;
}

export class AuthService {
  constructor(
    private readonly deps: {
      users: UsersRepository;
      sessions: SessionsRepository;
      clock: Clock;
      throttle: AuthThrottle;
      registration: 'open' | 'closed';
    },
  ) {}

  async register(input: { email: string; password: string; address: string }): Promise<SignedIn> {
    if (this.deps.registration === 'closed') throw forbidden('Registration is closed.');
    const problem = await passwordProblem(input.password);
    if (problem) throw fieldError('password', problem);
    const wait = await this.deps.throttle.registration(input.address);
    if (wait > 0) throw rateLimited(`Too many registrations from this address. Try again in ${wait} seconds.`, wait);
    const user = await this.deps.users.create({
      email: normalizeEmail(input.email),
      passwordHash: await hashPassword(input.password),
      isAdmin: false,
      createdAt: this.deps.clock.now().toISOString(),
    });
    return this.startSession(user);
  }

  async login(input: { email: string; password: string; address: string }): Promise<SignedIn> {
    const email = normalizeEmail(input.email);
    const { throttle } = this.deps;
    // The address first: past its limit a flood is refused without a database round trip.
    const spraying = await throttle.loginAttempt(input.address);
    if (spraying > 0) {
      throw rateLimited(`Too many failed logins from this address. Try again in ${spraying} seconds.`, spraying);
    }
    const wait = await throttle.loginWait(email, input.address);
    if (wait > 0) throw rateLimited(`Too many failed logins. Try again in ${wait} seconds.`, wait);

    const found = await this.deps.users.findByEmail(email);
    // The same work and the same answer for an unknown email and a wrong password.
    const valid = await verifyPassword(input.password, found?.password_hash ?? DUMMY_HASH);
    if (!found || !valid) {
      await throttle.loginFailed(email, input.address);
      throw unauthenticated(INVALID_LOGIN);
    }
    await throttle.loginSucceeded(email, input.address);
    if (found.is_blocked) throw forbidden('This account is blocked.');
    const { password_hash: _hash, ...user } = found;
    return this.startSession(user);
  }

  async logout(sessionToken: string): Promise<void> {
    await this.deps.sessions.delete(sha256Hex(sessionToken));
  }

  async userForSession(sessionToken: string): Promise<User | undefined> {
    return this.deps.sessions.findUser(sha256Hex(sessionToken), this.deps.clock.now().toISOString());
  }

  /** The first administrator from ADMIN_EMAIL/ADMIN_PASSWORD; does nothing when the email exists. */
  async ensureAdmin(email: string, password: string): Promise<void> {
    const normalized = normalizeEmail(email);
    if (await this.deps.users.findByEmail(normalized)) return;
    try {
      await this.deps.users.create({
        email: normalized,
        passwordHash: await hashPassword(password),
        isAdmin: true,
        createdAt: this.deps.clock.now().toISOString(),
      });
    } catch (error) {
      // Another instance created it at the same moment: that is the wanted state.
      if (!(error instanceof AppError && error.kind === 'conflict')) throw error;
    }
  }

  private async startSession(user: User): Promise<SignedIn> {
    const now = this.deps.clock.now();
    const sessionToken = randomHex(32);
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    await this.deps.sessions.create({
      idHash: sha256Hex(sessionToken),
      userId: user.id,
      createdAt: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
    });
    await this.deps.sessions.deleteExpired(now.toISOString());
    return { user, sessionToken, expiresAt };
  }
}
