import { Type } from 'typebox';
import { NonBlank, Timestamp, Int, named } from './common.js';

export const CollectionSchema = named(
  'Collection',
  Type.Object({
    id: Int(),
    name: Type.String(),
    scope: Type.String({ enum: ['global', 'user'] }),
    block_ids: Type.Array(Int(), { description: 'in order' }),
    created_at: Timestamp,
  }),
  { list: true },
);

export const CollectionCreateBody = Type.Object({ name: NonBlank({ maxLength: 255 }) });

export const CollectionBlocksBody = Type.Object({
  block_ids: Type.Array(Int({ minimum: 1 }), { minItems: 1, maxItems: 500 }),
});

export const CollectionOrderBody = Type.Object({
  block_ids: Type.Array(Int({ minimum: 1 }), {
    maxItems: 500,
    description: 'a permutation of the collection’s blocks',
  }),
});

export const CollectionEnvelope = Type.Object({ collection: CollectionSchema });
