import { Type } from 'typebox';
import { Id, NonBlank, Nullable, Timestamp, Int, named, namedBody, Paged, withExample } from './common.js';

const USER_EXAMPLE = {
  id: 2,
  email: 'ann@example.com',
  is_admin: false,
  is_blocked: false,
  created_at: '2026-01-05T10:00:00.000Z',
};

const userFields = {
  id: Int(),
  email: Type.String(),
  is_admin: Type.Boolean(),
  is_blocked: Type.Boolean(),
  created_at: Timestamp,
};

export const UserSchema = named('User', Type.Object(userFields), { list: true, example: USER_EXAMPLE });

export const AdminUserSchema = named(
  'AdminUser',
  Type.Object({
    ...userFields,
    is_system: Type.Boolean({
      description: 'the account that owns the starter blocks: no one signs in with it, and it cannot be changed',
    }),
  }),
  { list: true, example: { ...USER_EXAMPLE, is_system: false } },
);

export const UserEnvelope = withExample(Type.Object({ user: UserSchema }), { user: USER_EXAMPLE });

export const RegisterBody = namedBody(
  'RegisterBody',
  Type.Object({
    email: Type.String({ format: 'email', maxLength: 254 }),
    password: Type.String({ minLength: 8, maxLength: 1024 }),
  }),
  { email: 'ann@example.com', password: 'a long passphrase' },
);

export const LoginBody = namedBody(
  'LoginBody',
  Type.Object({
    email: Type.String({ maxLength: 254 }),
    password: Type.String({ maxLength: 1024 }),
  }),
  { email: 'admin@example.com', password: 'change-me-now' },
);

export const UserUpdateBody = namedBody(
  'UserUpdateBody',
  Type.Object({
    is_blocked: Type.Optional(Type.Boolean()),
    is_admin: Type.Optional(Type.Boolean()),
  }),
  { is_blocked: true },
);

export const ApiKeySchema = Type.Object({
  id: Int(),
  title: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to tell keys apart.' }),
  created_at: Timestamp,
  last_used_at: Nullable(Timestamp),
});

const API_KEY_EXAMPLE = {
  id: 1,
  title: 'my script',
  prefix: 'pb_3f9a2c1d',
  created_at: '2026-01-05T10:00:00.000Z',
  last_used_at: null,
};

export const ApiKeyList = withExample(Paged(ApiKeySchema), {
  data: [API_KEY_EXAMPLE],
  total: 1,
  limit: 50,
  offset: 0,
});

export const CreatedApiKeySchema = withExample(
  Type.Object({
    ...ApiKeySchema.properties,
    key: Type.String({ description: 'The whole key. Shown in this response only: store it now.' }),
  }),
  { ...API_KEY_EXAMPLE, key: `pb_3f9a2c1d${'0'.repeat(56)}` },
);

export const ApiKeyCreateBody = namedBody('ApiKeyCreateBody', Type.Object({ title: NonBlank({ maxLength: 255 }) }), {
  title: 'my script',
});

export const UserIdParams = Type.Object({ id: Id });
