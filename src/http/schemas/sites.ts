import { Type } from 'typebox';
import { Id, NonBlank, Nullable, Timestamp, Int, named, namedBody } from './common.js';

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
  {
    list: true,
    example: {
      id: 1,
      name: 'My blog',
      domain: null,
      layout_id: null,
      created_at: '2026-01-05T10:00:00.000Z',
      updated_at: '2026-01-05T10:00:00.000Z',
    },
  },
);

export const SiteCreateBody = namedBody(
  'SiteCreateBody',
  Type.Object({
    name: NonBlank({ maxLength: 255 }),
    domain: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  }),
  { name: 'My blog' },
);

export const SiteUpdateBody = namedBody(
  'SiteUpdateBody',
  Type.Object({
    name: Type.Optional(NonBlank({ maxLength: 255 })),
    domain: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
    layout_id: Type.Optional(Nullable(Id)),
  }),
  { domain: 'blog.example.com' },
);
