/** The answer of `POST /pages/{pageId}/blocks/{pbId}/migrate`. */
import { Type } from 'typebox';
import { STEP_OPS } from '../../modules/blocks/migrations/index.js';
import { VersionSchema } from './blocks.js';
import { Int, StringEnum, withExample } from './common.js';
import { PAGE_EXAMPLE, PageSchema } from './pages.js';

const MigratedValueSchema = Type.Object({
  version: VersionSchema,
  step: Int({ description: 'its index in the migrations of `version`' }),
  op: StringEnum(STEP_OPS),
  from: Type.Optional(Type.String({ description: 'where the value stood (rename, move, convert, drop)' })),
  path: Type.String({ description: 'where it stands after the step, in the values' }),
  before: Type.Optional(Type.Unknown()),
  after: Type.Optional(Type.Unknown()),
});

export const MigrateResult = withExample(
  Type.Object({
    id: Int({ description: 'the instance' }),
    from: VersionSchema,
    to: VersionSchema,
    migrated: Type.Array(MigratedValueSchema, { description: 'each value a step carried, set, made or dropped' }),
    page: PageSchema,
  }),
  {
    id: 7,
    from: { major: 1, minor: 2 },
    to: { major: 2, minor: 0 },
    migrated: [
      {
        version: { major: 2, minor: 0 },
        step: 0,
        op: 'rename',
        from: 'heading',
        path: 'title',
        before: 'Hi',
        after: 'Hi',
      },
    ],
    page: PAGE_EXAMPLE,
  },
);
