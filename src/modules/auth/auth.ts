export interface User {
  id: number;
  email: string;
  is_admin: boolean;
  is_blocked: boolean;
  created_at: string;
}

/** An account as administrators list it: `is_system` marks the account no person uses. */
export interface AdminUser extends User {
  is_system: boolean;
}

export interface UserWithPassword extends User {
  password_hash: string;
}

/** Port: where users and their sessions are kept. */
export interface UsersRepository {
  /** Throws a `conflict` AppError when the email is taken. */
  create(input: { email: string; passwordHash: string; isAdmin: boolean; createdAt: string }): Promise<User>;
  findByEmail(email: string): Promise<UserWithPassword | undefined>;
  findById(id: number): Promise<User | undefined>;
  update(id: number, patch: { is_admin?: boolean; is_blocked?: boolean }): Promise<User | undefined>;
  /** The system account that owns the starter blocks (blocked, no password), if the installation has it. */
  systemAccountId(): Promise<number | undefined>;
  /** Accounts by id, optionally those whose email contains `emailContains`. */
  list(query: {
    emailContains?: string | undefined;
    limit: number;
    offset: number;
  }): Promise<{ rows: User[]; total: number }>;
}

export interface SessionsRepository {
  create(input: { idHash: string; userId: number; createdAt: string; expiresAt: string }): Promise<void>;
  /** The user of a live (unexpired) session. */
  findUser(idHash: string, now: string): Promise<User | undefined>;
  delete(idHash: string): Promise<void>;
  deleteExpired(now: string): Promise<void>;
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** A counter per key that lives for a while: the store of the auth throttle, shared by every instance. */
export interface RateLimitStore {
  /**
   * Adds `points` to the key's count and answers the new count and its expiry
   * (epoch ms). A counter that has expired, or any with `reset`, starts afresh
   * with `points`, expiring `msDuration` after `now`.
   */
  add(
    key: string,
    points: number,
    msDuration: number,
    reset: boolean,
    now: number,
  ): Promise<{ points: number; expire: number }>;
  /** The live counter of the key, if any. */
  get(key: string, now: number): Promise<{ points: number; expire: number } | undefined>;
  delete(key: string): Promise<boolean>;
}
