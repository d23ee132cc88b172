import type { PageRequest } from '../../shared/pagination.js';

export interface ApiKey {
  id: number;
  title: string;
  /** The first characters of the key, shown to tell keys apart. */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

export interface KeyOwner {
  keyId: number;
  userId: number;
  isAdmin: boolean;
  isBlocked: boolean;
  lastUsedAt: string | null;
}

/** Port: where keys are kept (by SHA-256 only). */
export interface ApiKeysRepository {
  create(input: { userId: number; title: string; prefix: string; keyHash: string; createdAt: string }): Promise<ApiKey>;
  list(userId: number, page: PageRequest): Promise<{ rows: ApiKey[]; total: number }>;
  /** False when no key of this user has the id. */
  delete(userId: number, id: number): Promise<boolean>;
  findOwnerByHash(keyHash: string): Promise<KeyOwner | undefined>;
  /** Sets `last_used_at` unless it is already newer than `staleBefore`. */
  touch(id: number, now: string, staleBefore: string): Promise<void>;
}
