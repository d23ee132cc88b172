import { Type } from 'typebox';
import { NonBlank, Nullable, PageQueryProperties, StringEnum, Timestamp, Int, named, namedBody } from './common.js';
import { RevisionSchema, VersionSchema } from './blocks.js';

const submissionProperties = {
  id: Int(),
  block_id: Int(),
  status: Type.String({ enum: ['pending', 'approved', 'rejected'] }),
  reason: Nullable(Type.String({ description: 'why it was rejected' })),
  approved_block_id: Nullable(Int({ description: 'the global copy made on approval' })),
  created_at: Timestamp,
  decided_at: Nullable(Timestamp),
  block_name: Type.String({ description: 'the block’s name as submitted' }),
  // The version submitted: the approval copies exactly this revision (null on submissions decided before it was kept).
  version: Nullable(VersionSchema),
};

const SUBMISSION_EXAMPLE = {
  id: 1,
  block_id: 7,
  status: 'pending',
  reason: null,
  approved_block_id: null,
  created_at: '2026-01-05T10:00:00.000Z',
  decided_at: null,
  block_name: 'Hero',
  version: { major: 1, minor: 2 },
};

export const SubmissionSchema = named('Submission', Type.Object(submissionProperties), {
  list: true,
  example: SUBMISSION_EXAMPLE,
});

const adminProperties = {
  ...submissionProperties,
  author: Type.Object({ id: Int(), email: Type.String() }),
  changed_since_submitted: Nullable(
    Type.Boolean({
      description:
        'the author changed the block (its content, name, description, docs or type) after submitting it; the ' +
        'approval still copies what was submitted. Null when nothing submitted was kept to compare',
    }),
  ),
  // The block's version now.
  current_version: Nullable(VersionSchema),
};

const ADMIN_EXAMPLE = {
  ...SUBMISSION_EXAMPLE,
  author: { id: 3, email: 'author@example.com' },
  changed_since_submitted: true,
  current_version: { major: 1, minor: 3 },
};

export const AdminSubmissionSchema = named('AdminSubmission', Type.Object(adminProperties), {
  list: true,
  example: ADMIN_EXAMPLE,
});

export const SubmissionReviewSchema = named(
  'SubmissionReview',
  Type.Object({
    ...adminProperties,
    block: Type.Object(
      {
        name: Type.String(),
        description: Type.String(),
        docs: Type.String({ description: 'Markdown documentation' }),
        block_type: Nullable(Type.String({ enum: ['schema', 'markdown'] })),
        kind: Type.String({ enum: ['content', 'layout'] }),
      },
      { description: 'the block’s texts and type as submitted: the approval copies these' },
    ),
    // The revision submitted, whole: the approval copies it as version 1.0 of the global block.
    revision: Nullable(RevisionSchema),
  }),
  {
    example: {
      ...ADMIN_EXAMPLE,
      block: {
        name: 'Hero',
        description: 'A heading for the top of a page.',
        docs: '',
        block_type: 'schema',
        kind: 'content',
      },
      revision: {
        id: 12,
        version: { major: 1, minor: 2 },
        template_content: '<h1>{{ title }}</h1>',
        css: 'h1 { color: navy; }',
        js: '',
        schema_content: [{ name: 'title', type: 'string', required: true }],
        changelog: null,
        created_at: '2026-01-05T09:58:00.000Z',
      },
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
