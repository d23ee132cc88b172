export interface User {
  id: number;
  email: string;
  is_admin: boolean;
  is_blocked: boolean;
  created_at: string;
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
