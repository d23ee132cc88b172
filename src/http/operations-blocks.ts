import type { OperationDoc } from './operation-doc.js';

/** The blocks' entries of `OPERATIONS` (see operations.ts): what each says beyond its schemas. */
export const BLOCK_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  // Blocks
  'GET /blocks': {
    id: 'listBlocks',
    use: 'Use it to browse the blocks a page may use, filtered by tags or by role (content or layout).',
  },
  'POST /blocks': {
    id: 'createBlock',
    use: 'Use it to make a private block of your own when no global block fits.',
  },
  'GET /blocks/favorites': { id: 'listFavoriteBlocks', use: 'Use it to list the blocks you marked as favorites.' },
  'GET /blocks/{id}': {
    id: 'getBlock',
    use: 'Use it to read a block with its current revision (template, CSS, JS, fields).',
  },
  'PUT /blocks/{id}': {
    id: 'updateBlock',
    use: 'Use it to change a private block; try it with `dry_run=1` first to see the version bump and removed fields.',
  },
  'DELETE /blocks/{id}': { id: 'deleteBlock', use: 'Use it to remove a private block that no page uses.' },
  'POST /blocks/{id}/fork': {
    id: 'forkBlock',
    use: 'Use it to change a global block for yourself: the copy is private and yours to edit.',
  },
  'PUT /blocks/{id}/favorite': { id: 'addFavoriteBlock', use: 'Use it to keep a block at hand among your favorites.' },
  'DELETE /blocks/{id}/favorite': { id: 'removeFavoriteBlock', use: 'Use it to take a block off your favorites.' },
  'GET /blocks/{id}/usages': {
    id: 'listBlockUsages',
    use: 'Use it before changing or deleting a block: which of your pages use it, and which instances are outdated.',
  },
  'GET /blocks/{id}/upgrade-plan': {
    id: 'getBlockUpgradePlan',
    use: 'Use it before upgrading a block’s instances: for each of your instances behind the block’s version (or `to`), what an upgrade would add, lose, refuse, and its HTML before and after.',
  },
  'GET /blocks/{id}/adoption': {
    id: 'getBlockAdoption',
    use: 'Use it to see where a block stands on your pages: how many instances on each revision, and which pages.',
  },
  'GET /blocks/{id}/upgrades': {
    id: 'listBlockUpgradeSets',
    use: 'Use it to find an upgrade set made earlier (its `id`), to see what it moved or to revert it.',
  },
  'POST /blocks/{id}/upgrades': {
    id: 'upgradeBlockEverywhere',
    use: 'Use it after reading the upgrade plan, to move every ready instance of the block on your pages (or the listed ones) at once; keep the answer’s `id` to revert.',
  },
  'POST /upgrade-sets/{id}/revert': {
    id: 'revertUpgradeSet',
    use: 'Use it to undo an upgrade set: each of its pages back to its version before the set.',
  },
  'GET /blocks/{id}/revisions': {
    id: 'listBlockRevisions',
    use: 'Use it to see how a block changed: each version, its bump and changelog.',
  },
  'GET /blocks/{id}/placeholder-schema': {
    id: 'getPlaceholderSchema',
    use: 'Use it before putting a block on a page: it says exactly which `placeholder_values` and `bindings` the instance takes; with `version`, what an instance pinned to that older version takes until it is upgraded.',
  },
  'POST /blocks/{id}/preview': {
    id: 'previewBlock',
    use: 'Use it to see a block rendered with given values before putting it on a page.',
  },
  'POST /blocks/{id}/cover': {
    id: 'setBlockCover',
    use: 'Use it to give a block the picture shown for it in the library.',
  },
  'GET /search/blocks': {
    id: 'searchBlocks',
    use: 'Use it to find a block for a purpose by words (name, description, docs, tags).',
  },
};
