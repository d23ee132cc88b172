import { Type } from 'typebox';
import { Id, NonBlank, Nullable, Timestamp, Int, named } from './common.js';

export const LayoutSchema = named(
  'Layout',
  Type.Object({
    id: Int(),
    name: Type.String(),
    scope: Type.String({ enum: ['global', 'user'] }),
    site_id: Nullable(Int()),
    tags: Type.Array(Int(), { description: 'layout tag ids' }),
    template: Type.String(),
    css: Type.String(),
    js: Type.String(),
    fork_count: Int(),
    forked_from_id: Nullable(Int()),
    created_at: Timestamp,
    updated_at: Timestamp,
  }),
  { list: true },
);

const properties = {
  site_id: Type.Optional(Nullable(Id)),
  tags: Type.Optional(
    Type.Array(Int({ minimum: 1 }), { maxItems: 100, description: 'layout tag ids (GET /layout-tags)' }),
  ),
  template: Type.Optional(Type.String({ maxLength: 262_144 })),
  css: Type.Optional(Type.String({ maxLength: 262_144 })),
  js: Type.Optional(Type.String({ maxLength: 262_144 })),
};

export const LayoutCreateBody = Type.Object({ name: NonBlank({ maxLength: 255 }), ...properties });
export const LayoutUpdateBody = Type.Object({ name: Type.Optional(NonBlank({ maxLength: 255 })), ...properties });
