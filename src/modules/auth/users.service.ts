import type { Actor } from '../../shared/actor.js';
import { forbidden, notFound } from '../../shared/errors.js';
import type { User, UsersRepository } from './users.js';

/** Administration of accounts (blocking, granting admin). */
export class UsersService {
  constructor(private readonly users: UsersRepository) {}

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
