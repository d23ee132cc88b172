import { Type } from 'typebox';
import { NonBlank, Nullable, PageQueryProperties, StringEnum, Timestamp, Int, named, namedBody } from './common.js';

export const SubmissionSchema = named(
  'Submission',
  Type.Object({
    id: Int(),
    block_id: Int(),
    status: Type.String({ enum: ['pending', 'approved', 'rejected'] }),
    reason: Nullable(Type.String({ description: 'why it was rejected' })),
    approved_block_id: Nullable(Int({ description: 'the global copy made on approval' })),
    created_at: Timestamp,
    decided_at: Nullable(Timestamp),
  }),
  {
    list: true,
    example: {
      id: 1,
      block_id: 7,
      status: 'pending',
      reason: null,
      approved_block_id: null,
      created_at: '2026-01-05T10:00:00.000Z',
      decided_at: null,
    },
  },
);

export const SubmissionAdminQuery = Type.Object({
  ...PageQueryProperties,
  status: Type.Optional(StringEnum(['pending', 'approved', 'rejected'])),
});

export const RejectBody = namedBody('RejectBody', Type.Object({ reason: NonBlank({ maxLength: 2000 }) }), {
  reason: 'Duplicates the global hero',
});
