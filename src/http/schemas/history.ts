import { Type } from 'typebox';
import { VersionSchema } from './blocks.js';
import { Id, Int, JsonObject, Nullable, StringEnum, Timestamp, named } from './common.js';
import { PAGE_EXAMPLE_WITH_BLOCKS, PAGE_PROPERTIES } from './pages.js';

export const VersionParams = Type.Object({ id: Id, number: Int({ minimum: 1, description: 'a version number' }) });

export const DiffQuery = Type.Object({
  to: Type.Optional(Int({ minimum: 1, description: 'the version to compare with; default: the current one' })),
});

const ENTRY_EXAMPLE = {
  number: 7,
  created_at: '2026-01-05T10:02:00.000Z',
  actor: { user_id: 3, email: 'ann@example.com', via: 'key' as const, key_prefix: 'pb_1a2b3c4d' },
  summary: '2 blocks changed, 1 added',
  published: false,
};

export const VersionEntrySchema = named(
  'PageVersionEntry',
  Type.Object({
    number: Int({ minimum: 1 }),
    created_at: Timestamp,
    actor: Type.Object(
      {
        user_id: Nullable(Int()),
        email: Nullable(Type.String()),
        via: StringEnum(['key', 'session', 'mcp', 'system'] as const, {
          description:
            'an API key (`key_prefix` names it), a session of the web app, MCP (through the key named), or none (made when history began)',
        }),
        key_prefix: Nullable(Type.String()),
      },
      { description: 'who made the version, and how they came' },
    ),
    summary: Type.String({ description: 'one line, such as "2 blocks changed, 1 added"' }),
    published: Type.Boolean({ description: 'this version went to the provider' }),
  }),
  { list: true, example: ENTRY_EXAMPLE },
);

const VersionBlock = Type.Object({
  id: Int({ description: 'the instance id in that version (a restore gives a removed instance a new id)' }),
  block: Type.Object({
    id: Int(),
    name: Nullable(Type.String({ description: 'null: the block was deleted since' })),
    kind: Nullable(Type.String()),
  }),
  order_index: Int(),
  placeholder_values: JsonObject(),
  bindings: Nullable(JsonObject()),
  parent_page_block_id: Nullable(Int()),
  version: VersionSchema,
  update_status: StringEnum(['up_to_date', 'outdated_minor', 'outdated_major', 'block_deleted'] as const, {
    description: 'the pin against the block as it is now: what a restore brings back',
  }),
});

/** `Page` with its blocks as the version held them. */
export const PageVersionSchema = named(
  'PageVersion',
  Type.Object({
    ...PAGE_PROPERTIES,
    updated_at: Timestamp,
    version: Int({ minimum: 1, description: 'this version’s number' }),
    is_published: Type.Boolean({ description: 'this version went to the provider' }),
    blocks: Type.Array(VersionBlock),
  }),
  {
    example: {
      ...PAGE_EXAMPLE_WITH_BLOCKS,
      version: 2,
      blocks: PAGE_EXAMPLE_WITH_BLOCKS.blocks.map((b) => ({ ...b, update_status: 'outdated_minor' as const })),
    },
  },
);

const ValueChangeSchema = Type.Object({
  path: Type.String({ description: 'e.g. blocks[2].placeholder_values.items[0].title (the place in `to`)' }),
  old: Type.Optional(Type.Unknown({ description: 'absent: not there before' })),
  new: Type.Optional(Type.Unknown({ description: 'absent: not there after' })),
});

const Placed = Type.Object({ id: Int(), index: Int(), block_id: Int() });

export const VersionDiffSchema = named(
  'PageVersionDiff',
  Type.Object({
    from: Int(),
    to: Int(),
    blocks: Type.Object({
      added: Type.Array(Placed, { description: 'index: the place in `to`' }),
      removed: Type.Array(Placed, { description: 'index: the place in `from`' }),
      moved: Type.Array(
        Type.Object({
          id: Int(),
          from_index: Int(),
          to_index: Int(),
          from_parent: Nullable(Int()),
          to_parent: Nullable(Int()),
        }),
        {
          description:
            'the fewest instances that, taken out and put back, give the new order; and any whose parent changed',
        },
      ),
      pins: Type.Array(
        Type.Object({ id: Int(), index: Int(), block_id: Int(), from: VersionSchema, to: VersionSchema }),
      ),
    }),
    values: Type.Array(ValueChangeSchema, { description: 'placeholder_values and bindings, leaf by leaf' }),
    metadata: Type.Array(Type.Object({ field: Type.String(), old: Type.Unknown(), new: Type.Unknown() })),
  }),
  {
    example: {
      from: 2,
      to: 5,
      blocks: {
        added: [{ id: 14, index: 2, block_id: 6 }],
        removed: [],
        moved: [{ id: 9, from_index: 0, to_index: 1, from_parent: null, to_parent: null }],
        pins: [{ id: 9, index: 1, block_id: 6, from: { major: 1, minor: 0 }, to: { major: 1, minor: 1 } }],
      },
      values: [{ path: 'blocks[1].placeholder_values.items[0].title', old: 'Spring', new: 'Summer' }],
      metadata: [{ field: 'meta_title', old: null, new: 'Welcome' }],
    },
  },
);
