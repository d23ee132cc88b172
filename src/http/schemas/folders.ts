import { Type } from 'typebox';
import { Id, NonBlank, Nullable, PageQueryProperties, Timestamp, Int, named } from './common.js';

export const FolderSchema = named(
  'Folder',
  Type.Object({
    id: Int(),
    site_id: Int(),
    parent_id: Nullable(Int({ description: 'null: at the root of the site' })),
    name: Type.String(),
    created_at: Timestamp,
  }),
  { list: true },
);

export const FolderListQuery = Type.Object({ ...PageQueryProperties, site_id: Type.Optional(Id) });
export const FolderCreateBody = Type.Object({
  site_id: Id,
  parent_id: Type.Optional(Nullable(Id)),
  name: NonBlank({ maxLength: 255 }),
});
export const FolderUpdateBody = Type.Object({
  parent_id: Type.Optional(Nullable(Id)),
  name: Type.Optional(NonBlank({ maxLength: 255 })),
});
