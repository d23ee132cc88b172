import { Type } from 'typebox';
import { Id, NonBlank, Nullable, Timestamp, Int, named, namedBody } from './common.js';

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
  {
    list: true,
    example: {
      id: 2,
      name: 'Plain',
      scope: 'user',
      site_id: null,
      tags: [],
      template: '<main>{{ content }}</main>',
      css: '',
      js: '',
      fork_count: 0,
      forked_from_id: null,
      created_at: '2026-01-05T10:00:00.000Z',
      updated_at: '2026-01-05T10:00:00.000Z',
    },
  },
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

export const LayoutCreateBody = namedBody(
  'LayoutCreateBody',
  Type.Object({ name: NonBlank({ maxLength: 255 }), ...properties }),
  { name: 'Plain', template: '<main>{{ content }}</main>' },
);
export const LayoutUpdateBody = namedBody(
  'LayoutUpdateBody',
  Type.Object({ name: Type.Optional(NonBlank({ maxLength: 255 })), ...properties }),
  { name: 'Plain, wide' },
);
