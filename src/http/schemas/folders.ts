import { Type } from 'typebox';
import { Id, NonBlank, Nullable, PageQueryProperties, Timestamp, Int, named, namedBody } from './common.js';

export const FolderSchema = named(
  'Folder',
  Type.Object({
    id: Int(),
    site_id: Int(),
    parent_id: Nullable(Int({ description: 'null: at the root of the site' })),
    name: Type.String(),
    created_at: Timestamp,
  }),
  { list: true, example: { id: 1, site_id: 1, parent_id: null, name: 'News', created_at: '2026-01-05T10:00:00.000Z' } },
);

export const FolderListQuery = Type.Object({ ...PageQueryProperties, site_id: Type.Optional(Id) });
export const FolderCreateBody = namedBody(
  'FolderCreateBody',
  Type.Object({
    site_id: Id,
    parent_id: Type.Optional(Nullable(Id)),
    name: NonBlank({ maxLength: 255 }),
  }),
  { name: 'News', site_id: 1 },
);
export const FolderUpdateBody = namedBody(
  'FolderUpdateBody',
  Type.Object({
    parent_id: Type.Optional(Nullable(Id)),
    name: Type.Optional(NonBlank({ maxLength: 255 })),
  }),
  { name: 'Archive' },
);
