import { Type } from 'typebox';
import { Id, NonBlank, Nullable, Timestamp, Int, named } from './common.js';

export const UserSchema = named(
  'User',
  Type.Object({
    id: Int(),
    email: Type.String(),
    is_admin: Type.Boolean(),
    is_blocked: Type.Boolean(),
    created_at: Timestamp,
  }),
  { list: true },
);

export const UserEnvelope = Type.Object({ user: UserSchema });

export const RegisterBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 254 }),
  password: Type.String({ minLength: 8, maxLength: 1024 }),
});

export const LoginBody = Type.Object({
  email: Type.String({ maxLength: 254 }),
  password: Type.String({ maxLength: 1024 }),
});

export const UserUpdateBody = Type.Object({
  is_blocked: Type.Optional(Type.Boolean()),
  is_admin: Type.Optional(Type.Boolean()),
});

export const ApiKeySchema = Type.Object({
  id: Int(),
  title: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to tell keys apart.' }),
  created_at: Timestamp,
  last_used_at: Nullable(Timestamp),
});

export const CreatedApiKeySchema = Type.Object({
  ...ApiKeySchema.properties,
  key: Type.String({ description: 'The whole key. Shown in this response only: store it now.' }),
});

export const ApiKeyCreateBody = Type.Object({ title: NonBlank({ maxLength: 255 }) });

export const UserIdParams = Type.Object({ id: Id });
