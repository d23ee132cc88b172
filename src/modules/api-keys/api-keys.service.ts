import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import { notFound, unauthenticated } from '../../shared/errors.js';
import { pageOf, type Page, type PageRequest } from '../../shared/pagination.js';
import { randomHex, sha256Hex } from '../../shared/secrets.js';
import type { ApiKey, ApiKeysRepository } from './api-keys.js';

export const KEY_PATTERN = /^pb_[0-9a-f]{64}$/;
export const INVALID_KEY = 'Invalid API key.';
/** `pb_` and 8 hex characters: enough to tell keys apart, useless to an attacker. */
const PREFIX_LENGTH = 11;
/** `last_used_at` is written at most this often per key, not on every request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export interface AuthenticatedKey {
  keyId: number;
  actor: Actor;
  isBlocked: boolean;
  /** `pb_` and the first hex characters: names the key in logs without revealing it. */
  prefix: string;
  /** The version of the page named to `authenticate`, where the database keeps one (see KeyOwner). */
  pageVersion?: string | null | undefined;
}

export class ApiKeysService {
  constructor(private readonly deps: { keys: ApiKeysRepository; clock: Clock }) {}

  async create(actor: Actor, title: string): Promise<ApiKey & { key: string }> {
    const key = `pb_${randomHex(32)}`;
    const record = await this.deps.keys.create({
      userId: actor.userId,
      title,
      prefix: key.slice(0, PREFIX_LENGTH),
      keyHash: sha256Hex(key),
      createdAt: this.deps.clock.now().toISOString(),
    });
    return { ...record, key };
  }

  async list(actor: Actor, page: PageRequest): Promise<Page<ApiKey>> {
    const { rows, total } = await this.deps.keys.list(actor.userId, page);
    return pageOf(rows, total, page);
  }

  async delete(actor: Actor, id: number): Promise<void> {
    if (!(await this.deps.keys.delete(actor.userId, id))) throw notFound(`API key ${id} not found.`);
  }

  /**
   * Resolves a presented key; every lookup goes to the database, so a deleted
   * key fails at once. With `pageId` (a page read), the same lookup also
   * reads that page's version, which tells whether a kept answer still holds.
   */
  async authenticate(presented: string, pageId?: number): Promise<AuthenticatedKey> {
    if (!KEY_PATTERN.test(presented)) throw unauthenticated(INVALID_KEY);
    const owner = await this.deps.keys.findOwnerByHash(sha256Hex(presented), pageId);
    if (!owner) throw unauthenticated(INVALID_KEY);
    const now = this.deps.clock.now();
    const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
    if (owner.lastUsedAt === null || owner.lastUsedAt < staleBefore) {
      await this.deps.keys.touch(owner.keyId, now.toISOString(), staleBefore);
    }
    return {
      keyId: owner.keyId,
      actor: { userId: owner.userId, isAdmin: owner.isAdmin },
      isBlocked: owner.isBlocked,
      prefix: presented.slice(0, PREFIX_LENGTH),
      pageVersion: owner.pageVersion,
    };
  }
}
