import type { LoadedBlock, RevisionSummary, Version, VersionBump } from './blocks.js';

/** What a block's webhook events say of it (`block.revised`, `block.deprecated`, inside `page.outdated`). */
export const blockData = (
  block: Pick<LoadedBlock, 'id' | 'name' | 'scope'>,
  version?: Version,
  versionBump?: VersionBump,
): Record<string, unknown> => ({
  block_id: block.id,
  name: block.name,
  scope: block.scope,
  ...(version && { version: `${version.major}.${version.minor}` }),
  ...(versionBump && { version_bump: versionBump }),
});

/**
 * A page of a block's revisions, newest first, each with the bump it was:
 * `major` when the major part grew, else `minor`; null for the first one.
 * `rows` holds one revision more than shown, so the oldest shown knows its predecessor.
 */
export const withBumps = (rows: RevisionSummary[], limit: number) =>
  rows.slice(0, limit).map((revision, i) => {
    const previous = rows[i + 1];
    const version_bump: 'major' | 'minor' | null = !previous
      ? null
      : revision.version.major > previous.version.major
        ? 'major'
        : 'minor';
    return { ...revision, version_bump };
  });
