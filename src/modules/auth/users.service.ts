import type { Actor } from '../../shared/actor.js';
import { forbidden, notFound } from '../../shared/errors.js';
import { pageOf, type Page, type PageRequest } from '../../shared/pagination.js';
import type { AdminUser, User, UsersRepository } from './auth.js';

/** Administration of accounts (blocking, granting admin). */
export class UsersService {
  constructor(private readonly users: UsersRepository) {}

  /** Every account, for administrators: to find the one to block or promote. */
  async list(actor: Actor, query: PageRequest & { email?: string | undefined }): Promise<Page<AdminUser>> {
    if (!actor.isAdmin) throw forbidden('Administrators only.');
    const [{ rows, total }, systemId] = await Promise.all([
      this.users.list({ emailContains: query.email || undefined, ...query }),
      this.users.systemAccountId(),
    ]);
    return pageOf(
      rows.map((user) => ({ ...user, is_system: user.id === systemId })),
      total,
      query,
    );
  }

  async update(actor: Actor, id: number, patch: { is_admin?: boolean; is_blocked?: boolean }): Promise<User> {
    if (!actor.isAdmin) throw forbidden('Administrators only.');
    if (id === actor.userId && (patch.is_blocked === true || patch.is_admin === false)) {
      // Locking oneself out leaves an installation with no administrator to undo it.
      throw forbidden('An administrator cannot block or demote their own account.');
    }
    if (id === (await this.users.systemAccountId())) {
      // It owns the starter blocks and has no password: unblocked or promoted, it would still be no one's.
      throw forbidden(
        'This is the system account that owns the starter blocks: it stays blocked, and is no administrator.',
      );
    }
    const user = await this.users.update(id, patch);
    if (!user) throw notFound(`User ${id} not found.`);
    return user;
  }
}
