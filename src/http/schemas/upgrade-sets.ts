/**
 * Upgrade everywhere and its revert: what `POST /blocks/{id}/upgrades` and
 * `POST /upgrade-sets/{id}/revert` take, the set they answer, and the list of
 * a block's sets (`GET /blocks/{id}/upgrades`).
 */
import { Type } from 'typebox';
import { VersionSchema } from './blocks.js';
import { PAGE_MAX_LIMIT } from '../../shared/pagination.js';
import { Id, Int, Nullable, named, namedBody, withExample } from './common.js';
import { UpgradePlanQuery } from './upgrade-plan.js';

export const UpgradesBody = namedBody(
  'UpgradesBody',
  Type.Object(
    {
      to: UpgradePlanQuery.properties.to,
      pages: Type.Optional(
        Type.Array(Id, {
          maxItems: PAGE_MAX_LIMIT * 50,
          uniqueItems: true,
          description: 'only these pages (each must hold an instance behind `to`); all your pages by default',
        }),
      ),
      include_migratable: Type.Optional(
        Type.Boolean({ description: 'take the instances a value migration carries across too (default false)' }),
      ),
    },
    { additionalProperties: false },
  ),
  { to: '1.1' },
);

export const RevertBody = namedBody(
  'RevertBody',
  Type.Object(
    {
      force: Type.Optional(
        Type.Boolean({ description: 'revert the pages changed since the set too (their later changes are undone)' }),
      ),
    },
    { additionalProperties: false },
  ),
  { force: false },
);

const SET_PAGE_EXAMPLE = { page_id: 7, version_before: 4, version_after: 5, instances: 2 };
const SetPage = Type.Object({
  page_id: Int(),
  version_before: Int({ description: 'the page’s version just before the set: what a revert restores' }),
  version_after: Int({ description: 'the version the set made' }),
  instances: Int({ description: 'its instances the set upgraded' }),
});

export const UpgradeSetSchema = named(
  'UpgradeSet',
  Type.Object({
    id: Nullable(Int({ description: 'the set, for its revert; null when nothing was upgraded (no set is kept)' })),
    block_id: Int(),
    to: VersionSchema,
    created_at: Nullable(Type.String({ format: 'date-time' })),
    reverted_at: Nullable(Type.String({ format: 'date-time' })),
    pages: Type.Array(SetPage, { description: 'each page the set moved, one version each, in page id order' }),
    upgraded: Type.Array(Type.Object({ id: Int(), page_id: Int(), from: VersionSchema, to: VersionSchema })),
    skipped: Type.Array(
      Type.Object({
        id: Int(),
        page_id: Int(),
        from: VersionSchema,
        blocked_by: Type.Array(Type.String(), {
          description: 'the plan’s blocked_by (`major`, `values`, `bindings`); `migration` when not included',
        }),
      }),
    ),
  }),
  {
    example: {
      id: 12,
      block_id: 3,
      to: { major: 1, minor: 1 },
      created_at: '2026-05-01T10:00:00.000Z',
      reverted_at: null,
      pages: [SET_PAGE_EXAMPLE],
      upgraded: [{ id: 41, page_id: 7, from: { major: 1, minor: 0 }, to: { major: 1, minor: 1 } }],
      skipped: [{ id: 42, page_id: 7, from: { major: 1, minor: 0 }, blocked_by: ['values'] }],
    },
  },
);

export const RevertedSetSchema = named(
  'RevertedUpgradeSet',
  Type.Object({
    id: Int(),
    block_id: Int(),
    to: VersionSchema,
    created_at: Type.String({ format: 'date-time' }),
    reverted_at: Nullable(Type.String({ format: 'date-time' })),
    pages: Type.Array(SetPage),
  }),
  {
    example: {
      id: 12,
      block_id: 3,
      to: { major: 1, minor: 1 },
      created_at: '2026-05-01T10:00:00.000Z',
      reverted_at: '2026-05-01T10:05:00.000Z',
      pages: [SET_PAGE_EXAMPLE],
    },
  },
);

export const UpgradeSetsPage = withExample(
  Type.Object({
    data: Type.Array(RevertedSetSchema, { description: 'newest first' }),
    total: Int(),
    limit: Int(),
    offset: Int(),
  }),
  {
    data: [
      {
        id: 12,
        block_id: 3,
        to: { major: 1, minor: 1 },
        created_at: '2026-05-01T10:00:00.000Z',
        reverted_at: null,
        pages: [SET_PAGE_EXAMPLE],
      },
    ],
    total: 1,
    limit: 50,
    offset: 0,
  },
);
