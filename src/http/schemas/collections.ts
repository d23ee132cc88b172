import { Type } from 'typebox';
import { NonBlank, Timestamp, Int, named, namedBody, withExample } from './common.js';

const COLLECTION_EXAMPLE = {
  id: 1,
  name: 'Landing pages',
  scope: 'user',
  block_ids: [6, 7],
  created_at: '2026-01-05T10:00:00.000Z',
};

export const CollectionSchema = named(
  'Collection',
  Type.Object({
    id: Int(),
    name: Type.String(),
    scope: Type.String({ enum: ['global', 'user'] }),
    block_ids: Type.Array(Int(), { description: 'in order' }),
    created_at: Timestamp,
  }),
  { list: true, example: COLLECTION_EXAMPLE },
);

export const CollectionCreateBody = namedBody(
  'CollectionCreateBody',
  Type.Object({ name: NonBlank({ maxLength: 255 }) }),
  { name: 'Landing pages' },
);

export const CollectionBlocksBody = namedBody(
  'CollectionBlocksBody',
  Type.Object({ block_ids: Type.Array(Int({ minimum: 1 }), { minItems: 1, maxItems: 500 }) }),
  { block_ids: [6, 7] },
);

export const CollectionOrderBody = namedBody(
  'CollectionOrderBody',
  Type.Object({
    block_ids: Type.Array(Int({ minimum: 1 }), {
      maxItems: 500,
      description: 'a permutation of the collection’s blocks',
    }),
  }),
  { block_ids: [7, 6] },
);

export const CollectionEnvelope = withExample(Type.Object({ collection: CollectionSchema }), {
  collection: COLLECTION_EXAMPLE,
});
