import { Type } from 'typebox';
import { NonBlank, Nullable, PageQueryProperties, StringEnum, Timestamp, Int, named } from './common.js';

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
  { list: true },
);

export const SubmissionAdminQuery = Type.Object({
  ...PageQueryProperties,
  status: Type.Optional(StringEnum(['pending', 'approved', 'rejected'])),
});

export const RejectBody = Type.Object({ reason: NonBlank({ maxLength: 2000 }) });
