import type { Actor } from '../../shared/actor.js';
import { forbidden, notFound } from '../../shared/errors.js';
import { pageOf, type Page, type PageRequest } from '../../shared/pagination.js';
import type { User, UsersRepository } from './auth.js';

/** Administration of accounts (blocking, granting admin). */
export class UsersService {
  constructor(private readonly users: UsersRepository) {}

  /** Every account, for administrators: to find the one to block or promote. */
  async list(actor: Actor, query: PageRequest & { email?: string | undefined }): Promise<Page<User>> {
    if (!actor.isAdmin) throw forbidden('Administrators only.');
    const { rows, total } = await this.users.list({ emailContains: query.email || undefined, ...query });
    return pageOf(rows, total, query);
  }

  async update(actor: Actor, id: number, patch: { is_admin?: boolean; is_blocked?: boolean }): Promise<User> {
    if (!actor.isAdmin) throw forbidden('Administrators only.');
    if (id === actor.userId && (patch.is_blocked === true || patch.is_admin === false)) {
      // Locking oneself out leaves an installation with no administrator to undo it.
      throw forbidden('An administrator cannot block or demote their own account.');
    }
    const user = await this.users.update(id, patch);
    if (!user) throw notFound(`User ${id} not found.`);
    return user;
  }
}
