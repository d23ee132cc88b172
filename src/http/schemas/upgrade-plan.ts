/**
 * What changing a block means for the pages that use it: the `upgrade_impact`
 * and `migration_impact` of a block update (and `BlockUpdateResult`, which
 * carries them), and the upgrade plan (`GET /blocks/{id}/upgrade-plan`).
 */
import { Type } from 'typebox';
import { BLOCK_EXAMPLE, BlockSchema, VersionSchema } from './blocks.js';
import { Int, JsonObject, Nullable, PageQueryProperties, StringEnum, named, withExample } from './common.js';

const IMPACT_EXAMPLE = {
  to: { major: 1, minor: 1 },
  instances: 12,
  behind: 12,
  behind_major: 0,
  would_not_validate: 4,
  migratable: 0,
  reasons: [
    {
      field: 'title',
      constraint: 'max_length',
      from: 60,
      to: 10,
      code: 'too_long',
      instances: 4,
      message: 'title: max_length 60 → 10: 4 instances hold longer text',
    },
  ],
};

export const UpgradeImpactSchema = named(
  'UpgradeImpact',
  Type.Object(
    {
      to: VersionSchema,
      instances: Int({ description: "the caller's instances of the block, on all their pages" }),
      behind: Int({ description: 'of those, how many are not on `to`' }),
      behind_major: Int({
        description: 'of those behind, how many a major step separates from `to` (an upgrade refuses them)',
      }),
      would_not_validate: Int({
        description:
          'of those behind, how many would not validate on `to`, taken as an upgrade takes them (new fields with their defaults, the value migrations on the way applied)',
      }),
      migratable: Int({
        description:
          'of those behind by a major, how many the value migrations carry across with values that validate (`POST /pages/{pageId}/blocks/{pbId}/migrate`, or upgrade everywhere with `include_migratable`)',
      }),
      reasons: Type.Array(
        Type.Object({
          field: Type.String({ description: 'the field, nested with dots and `[]` for list items' }),
          constraint: Type.String({
            description:
              'the constraint that refuses the values: `max_length`, `min_length`, `max`, `min`, `max_items`, `min_items`, ' +
              '`pattern`, `options`, `required`, `type`; `value` for anything else',
          }),
          from: Type.Unknown({ description: 'its value in the revisions the instances stand on (null: none)' }),
          to: Type.Unknown({ description: 'its value in the new revision (null: none)' }),
          code: Type.String({ description: "the validation error's code" }),
          instances: Int({ description: 'how many instances it refuses' }),
          message: Type.String({ description: 'e.g. `title: max_length 60 → 10: 4 instances hold longer text`' }),
        }),
        { description: 'why, by field and constraint, the most instances first' },
      ),
    },
    {
      description:
        "What the update means for the caller's pages: instances behind the block's version and those that would not " +
        'validate on it. With dry_run=1, what to show before saving. Null for a block without content.',
    },
  ),
  { example: IMPACT_EXAMPLE },
);

const MIGRATION_IMPACT_EXAMPLE = {
  holding: [{ field: 'heading', instances: 3 }],
  migratable: 3,
  blocked: 1,
  reasons: [{ field: 'price', code: 'type', instances: 1, message: '"twelve" is not a number.' }],
};

export const MigrationImpactSchema = named(
  'MigrationImpact',
  Type.Object(
    {
      holding: Type.Array(
        Type.Object({
          field: Type.String({ description: 'a removed field, as `removed_fields` names it' }),
          instances: Int({ description: "how many of the caller's instances hold a value there (not null or empty)" }),
        }),
        { description: 'for each removed field, in the order of `removed_fields`' },
      ),
      migratable: Int({
        description:
          'instances behind whose revisions on the way carry or drop every removed field (with this update’s ' +
          '`migrations`): what POST /pages/{pageId}/blocks/{pbId}/migrate takes',
      }),
      blocked: Int({
        description:
          'of those, how many migrate would refuse: a value a step cannot make, or values that would not validate',
      }),
      reasons: Type.Array(
        Type.Object({
          field: Type.String(),
          code: Type.String(),
          instances: Int(),
          message: Type.String({ description: "one instance's message" }),
        }),
        { description: 'why, by field and code, the most instances first' },
      ),
    },
    {
      description:
        "What the update means for the values of the fields it removes: how many instances hold them, and with the update's " +
        '`migrations`, how many instances those take across. With dry_run=1, what to show before saving. Null unless ' +
        'the update removes a field.',
    },
  ),
  { example: MIGRATION_IMPACT_EXAMPLE },
);

export const BlockUpdateResult = withExample(
  Type.Object({
    block: BlockSchema,
    version_bump: Type.String({ enum: ['major', 'minor', 'none'] }),
    removed_fields: Type.Array(Type.String(), {
      description:
        'the fields the change removes or renames (their old names), at any depth: `title`, `author.name`, ' +
        '`items[].caption`; empty unless major. With dry_run=1, the warning to show before saving',
    }),
    upgrade_impact: Nullable(UpgradeImpactSchema),
    migration_impact: Nullable(MigrationImpactSchema),
  }),
  {
    block: { ...BLOCK_EXAMPLE, version: { major: 1, minor: 1 }, edit_version: 2 },
    version_bump: 'minor',
    removed_fields: [],
    upgrade_impact: IMPACT_EXAMPLE,
    migration_impact: null,
  },
);

export const UpgradePlanQuery = Type.Object({
  ...PageQueryProperties,
  to: Type.Optional(
    Type.String({
      // Nine digits a part at most: an integer column holds them on both databases.
      pattern: '^(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})$',
      description:
        'major.minor (e.g. `1.2`): the revision to plan the upgrade to; the block’s current one by default. A version ' +
        'the block never had is a 422 at `to`',
    }),
  ),
});

const Problem = Type.Object({
  path: Type.String({ description: 'e.g. `placeholder_values.title`, `bindings.events.source`' }),
  code: Type.String(),
  message: Type.String(),
});

const ENTRY_EXAMPLE = {
  id: 41,
  page: { id: 7, name: 'Home' },
  position: 0,
  from: { major: 1, minor: 0 },
  to: { major: 1, minor: 1 },
  bump: 'minor' as const,
  status: 'blocked' as const,
  blocked_by: ['values' as const],
  migration: false,
  added: [{ field: 'cta_label', value: 'Go', from_default: true }],
  removed_fields: [],
  lost: [],
  migrated: [],
  values_after: { title: 'A title well over ten', cta_label: 'Go' },
  invalid_values: [
    { path: 'placeholder_values.title', code: 'too_long', message: 'Title is too long: at most 10 characters.' },
  ],
  invalid_bindings: [],
  html: {
    before: '<h2>A title well over ten</h2>',
    after: '<h2>A title well over ten</h2><a>Go</a>',
    changed: true,
    assets_changed: false,
    errors: [],
  },
};

export const UpgradePlanEntrySchema = named(
  'UpgradePlanEntry',
  Type.Object({
    id: Int({ description: 'the page-block instance' }),
    page: Type.Object({ id: Int(), name: Type.String() }),
    position: Int({ description: 'its place in the page’s order, from 0 (`blocks[i]`)' }),
    from: VersionSchema,
    to: VersionSchema,
    bump: StringEnum(['minor', 'major'] as const),
    status: StringEnum(['ready', 'blocked'] as const, {
      description: 'ready: an upgrade takes it as planned; blocked: see blocked_by',
    }),
    blocked_by: Type.Array(StringEnum(['major', 'values', 'bindings'] as const), {
      description:
        'major: a major step no migration covers (replace it, or migrate); values: values that would not validate; ' +
        'bindings: bindings that would stop validating',
    }),
    migration: Type.Boolean({ description: 'a value migration takes it across' }),
    added: Type.Array(
      Type.Object({
        field: Type.String(),
        value: Type.Unknown({ description: 'the value it takes: its default, or null when it has none' }),
        from_default: Type.Boolean(),
      }),
      { description: 'top-level fields the target revision adds' },
    ),
    removed_fields: Type.Array(Type.String(), {
      description: 'fields the target revision removes or renames, as `removed_fields` names them',
    }),
    lost: Type.Array(Type.Object({ path: Type.String(), value: Type.Unknown() }), {
      description: 'the values of removed fields this instance holds, at their paths: lost by the upgrade',
    }),
    migrated: Type.Array(Type.Object({ path: Type.String(), before: Type.Unknown(), after: Type.Unknown() }), {
      description: 'values a migration moves or changes (`before` null: there was none; `after` null: dropped)',
    }),
    values_after: JsonObject({ description: 'the placeholder_values it would hold on the target revision' }),
    invalid_values: Type.Array(Problem, { description: 'values that would not validate on the target revision' }),
    invalid_bindings: Type.Array(Problem, { description: 'bindings that would stop validating' }),
    html: Type.Object(
      {
        before: Nullable(Type.String()),
        after: Nullable(Type.String()),
        changed: Type.Boolean({ description: 'the two differ (or one side cannot be rendered)' }),
        assets_changed: Type.Boolean({ description: 'the revisions’ CSS or JS differ' }),
        errors: Type.Array(Type.String(), { description: 'why a side could not be rendered' }),
      },
      { description: 'the instance’s own HTML on its revision and on the target one, with stub data' },
    ),
  }),
  { example: ENTRY_EXAMPLE },
);

const SUMMARY_EXAMPLE = {
  instances: 12,
  pages: 3,
  up_to_date: 2,
  ahead: 0,
  behind: 10,
  pages_behind: 3,
  minor: 6,
  migration: 0,
  blocked: { instances: 4, major: 0, values: 4, bindings: 0 },
  reasons: [{ field: 'title', code: 'too_long', instances: 4 }],
};

export const UpgradePlanSchema = withExample(
  Type.Object({
    block_id: Int(),
    to: VersionSchema,
    summary: Type.Object(
      {
        instances: Int({ description: 'your instances of the block, on all your pages' }),
        pages: Int(),
        up_to_date: Int({ description: 'instances on `to` already' }),
        ahead: Int({ description: 'instances on a later revision than `to`' }),
        behind: Int({ description: 'instances behind `to`: the entries' }),
        pages_behind: Int(),
        minor: Int({ description: 'of those behind, how many an upgrade takes with a minor step' }),
        migration: Int({ description: 'of those behind, how many an upgrade takes through a value migration' }),
        blocked: Type.Object({
          instances: Int(),
          major: Int(),
          values: Int(),
          bindings: Int(),
        }),
        reasons: Type.Array(Type.Object({ field: Type.String(), code: Type.String(), instances: Int() }), {
          description: 'values that would not validate, by field and code, the most instances first',
        }),
      },
      { description: 'every instance behind `to`, whatever the page of entries asked for' },
    ),
    data: Type.Array(UpgradePlanEntrySchema),
    total: Int(),
    limit: Int(),
    offset: Int(),
  }),
  {
    block_id: 3,
    to: { major: 1, minor: 1 },
    summary: SUMMARY_EXAMPLE,
    data: [ENTRY_EXAMPLE],
    total: 10,
    limit: 50,
    offset: 0,
  },
);
