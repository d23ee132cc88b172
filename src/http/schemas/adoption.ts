/** Adoption of a block (`GET /blocks/{id}/adoption`): the caller's instances on each of its revisions. */
import { Type } from 'typebox';
import { VersionSchema } from './blocks.js';
import { Int, Nullable, withExample } from './common.js';

export const AdoptionSchema = withExample(
  Type.Object({
    block_id: Int(),
    version: Nullable(VersionSchema),
    instances: Int({ description: 'your instances of the block, on all your pages' }),
    pages: Int({ description: 'the pages they stand on' }),
    revisions: Type.Array(
      Type.Object({
        version: VersionSchema,
        current: Type.Boolean({ description: 'the block’s current version' }),
        instances: Int(),
        pages: Type.Array(Type.Object({ id: Int(), name: Type.String(), instances: Int() }), {
          description: 'the pages holding instances on this revision, by name',
        }),
      }),
      { description: 'each revision your instances stand on, newest first; a page with two is under both' },
    ),
  }),
  {
    block_id: 3,
    version: { major: 1, minor: 1 },
    instances: 12,
    pages: 3,
    revisions: [
      { version: { major: 1, minor: 1 }, current: true, instances: 2, pages: [{ id: 7, name: 'Home', instances: 2 }] },
      {
        version: { major: 1, minor: 0 },
        current: false,
        instances: 10,
        pages: [
          { id: 8, name: 'About', instances: 4 },
          { id: 9, name: 'Contact', instances: 6 },
        ],
      },
    ],
  },
);
