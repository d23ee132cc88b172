/**
 * Where value migrations run: on this thread when no step derives a value
 * (the steps are plain moves of JSON), on a render thread when one does (a
 * derive is a Liquid template, untrusted, run under the renderer's limits and
 * a page's wall-clock budget). `migrateValues` is the one rule either way.
 */
import type { LoadedBlock, Version } from '../blocks/blocks.js';
import type { FieldDefinition } from '../blocks/schema/index.js';
import type { PageBlock } from './pages.js';
import { chainCoverage, migrateValues, type MigrationLink, type MigrationOutcome } from '../blocks/migrations/index.js';
import type { RenderFor } from '../publishing/publishing.js';

/** Port: the render threads, running `migrateValues` with LiquidJS derives (`RenderPool.migrate`). */
export interface MigrationThreads {
  migrate(
    values: Record<string, unknown>[],
    chain: MigrationLink[],
    renderFor?: RenderFor,
  ): Promise<MigrationOutcome[] | { stopped: string }>;
}

/** Port: an instance's chain of revisions (`BlocksRepository.chain`). */
export interface RevisionChains {
  chain(blockId: number, after: Version, upTo: Version): Promise<MigrationLink[]>;
}

/** Instances sent to a thread at once: one task's budget is shared by them. */
const BATCH = 200;

export class ValueMigrator {
  constructor(private readonly threads: MigrationThreads) {}

  /** Each instance's values through `chain`, in order (see `migrateValues`). */
  async run(values: Record<string, unknown>[], chain: MigrationLink[], userId: number): Promise<MigrationOutcome[]> {
    const derive = chain.flatMap((link) =>
      link.migrations.flatMap((step, index) => (step.op === 'derive' ? [{ link, index, to: step.to }] : [])),
    )[0];
    if (!derive) return values.map((v) => migrateValues(v, chain));
    const out: MigrationOutcome[] = [];
    for (let start = 0; start < values.length; start += BATCH) {
      const batch = values.slice(start, start + BATCH);
      const done = await this.threads.migrate(batch, chain, { userId, purpose: 'write' });
      if (!('stopped' in done)) {
        out.push(...done);
        continue;
      }
      // The thread was ended: no value of the batch was made. Said at the first derive.
      const problem = {
        version: derive.link.version,
        step: derive.index,
        path: derive.to,
        message: `derive ${derive.to}: ${done.stopped}`,
        code: 'invalid' as const,
      };
      out.push(...batch.map((v) => ({ values: v, migrated: [], problems: [problem] })));
    }
    return out;
  }
}

/** The key of a block's chain from a pinned version. */
export const chainKey = (blockId: number, v: Version) => `${blockId}:${v.major}.${v.minor}`;

/**
 * Whether the major step of each instance to its block's current revision is
 * migratable, by `chainKey`: one chain read per block and pinned version.
 */
export async function migratability(
  chains: RevisionChains,
  instances: Iterable<Pick<PageBlock, 'block' | 'version' | 'schema_snapshot'>>,
  blocks: Map<number, Pick<LoadedBlock, 'revision'>>,
): Promise<Map<string, boolean>> {
  const out = new Map<string, boolean>();
  for (const instance of instances) {
    const revision = blocks.get(instance.block.id)?.revision;
    const key = chainKey(instance.block.id, instance.version);
    if (!revision || revision.version.major === instance.version.major || out.has(key)) continue;
    const chain = await chains.chain(instance.block.id, instance.version, revision.version);
    out.set(key, chainCoverage(instance.schema_snapshot.value as FieldDefinition[], chain).migratable);
  }
  return out;
}
