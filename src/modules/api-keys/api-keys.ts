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
  /**
   * The version of the page asked for beside the key, where the database keeps
   * one (null: no such page); undefined when it was not asked for or is not kept.
   */
  pageVersion?: string | null | undefined;
}

/** Port: where keys are kept (by SHA-256 only). */
export interface ApiKeysRepository {
  create(input: { userId: number; title: string; prefix: string; keyHash: string; createdAt: string }): Promise<ApiKey>;
  list(userId: number, page: PageRequest): Promise<{ rows: ApiKey[]; total: number }>;
  /** False when no key of this user has the id. */
  delete(userId: number, id: number): Promise<boolean>;
  /** With `pageId`, also that page's version, in the same round trip, where the database keeps one. */
  findOwnerByHash(keyHash: string, pageId?: number): Promise<KeyOwner | undefined>;
  /** Sets `last_used_at` unless it is already newer than `staleBefore`. */
  touch(id: number, now: string, staleBefore: string): Promise<void>;
}
