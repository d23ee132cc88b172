import { sql } from 'kysely';
import type { Database } from '../dialects/dialect.js';
import { conflict } from '../../shared/errors.js';
import type { SessionsRepository, User, UserWithPassword, UsersRepository } from '../../modules/auth/auth.js';
import { toUser } from './rows.js';
import { readAll } from '../read-all.js';
import { STARTER_OWNER_EMAIL } from '../migrations/0007-starter-blocks.js';

const USER_COLUMNS = ['id', 'email', 'is_admin', 'is_blocked', 'created_at'] as const;

export function usersRepository({ db, dialect }: Database): UsersRepository {
  return {
    async create(input) {
      try {
        const row = await db
          .insertInto('users')
          .values({
            email: input.email,
            password_hash: input.passwordHash,
            is_admin: input.isAdmin,
            is_blocked: false,
            created_at: input.createdAt,
          })
          .returning(USER_COLUMNS)
          .executeTakeFirstOrThrow();
        return toUser(row);
      } catch (error) {
        if (dialect.isUniqueViolation(error)) {
          throw conflict('This email is already registered.', [
            { path: 'email', message: 'This email is already registered.' },
          ]);
        }
        throw error;
      }
    },
    async findByEmail(email): Promise<UserWithPassword | undefined> {
      const row = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
      return row && { ...toUser(row), password_hash: row.password_hash };
    },
    async findById(id): Promise<User | undefined> {
      const row = await db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
      return row && toUser(row);
    },
    async list({ emailContains, limit, offset }) {
      // LIKE with its wildcards escaped: the text is matched as typed. Emails are stored lower-case.
      const pattern = emailContains && `%${emailContains.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const base = db
        .selectFrom('users')
        .$if(pattern !== undefined, (q) => q.where(sql<boolean>`email like ${pattern} escape '\\'`));
      const [rows, count] = await readAll(
        db,
        () => base.select(USER_COLUMNS).orderBy('id').limit(limit).offset(offset).execute(),
        () => base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      );
      return { rows: rows.map(toUser), total: Number(count.total) };
    },
    async systemAccountId() {
      const row = await db.selectFrom('users').select('id').where('email', '=', STARTER_OWNER_EMAIL).executeTakeFirst();
      return row?.id;
    },
    async update(id, patch) {
      // Named columns only: a body's extra key (email, password_hash) never reaches the row.
      const columns = {
        ...(patch.is_admin !== undefined && { is_admin: patch.is_admin }),
        ...(patch.is_blocked !== undefined && { is_blocked: patch.is_blocked }),
      };
      if (Object.keys(columns).length === 0) return this.findById(id);
      const row = await db
        .updateTable('users')
        .set(columns)
        .where('id', '=', id)
        .returning(USER_COLUMNS)
        .executeTakeFirst();
      return row && toUser(row);
    },
  };
}

export function sessionsRepository({ db }: Database): SessionsRepository {
  return {
    async create(input) {
      await db
        .insertInto('sessions')
        .values({
          id_hash: input.idHash,
          user_id: input.userId,
          created_at: input.createdAt,
          expires_at: input.expiresAt,
        })
        .execute();
    },
    async findUser(idHash, now) {
      const row = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['users.id', 'users.email', 'users.is_admin', 'users.is_blocked', 'users.created_at'])
        .where('sessions.id_hash', '=', idHash)
        .where('sessions.expires_at', '>', now)
        .executeTakeFirst();
      return row && toUser(row);
    },
    async delete(idHash) {
      await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
    },
    async deleteExpired(now) {
      await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
    },
  };
}
