import { Type } from 'typebox';
import { Id, NonBlank, Nullable, Timestamp, Int, named } from './common.js';

export const SiteSchema = named(
  'Site',
  Type.Object({
    id: Int(),
    name: Type.String(),
    domain: Nullable(Type.String()),
    layout_id: Nullable(Int()),
    created_at: Timestamp,
    updated_at: Timestamp,
  }),
  { list: true },
);

export const SiteCreateBody = Type.Object({
  name: NonBlank({ maxLength: 255 }),
  domain: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
});

export const SiteUpdateBody = Type.Object({
  name: Type.Optional(NonBlank({ maxLength: 255 })),
  domain: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  layout_id: Type.Optional(Nullable(Id)),
});
