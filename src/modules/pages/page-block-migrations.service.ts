/**
 * `POST /pages/{pageId}/blocks/{pbId}/migrate`: one instance through its
 * block's chain of revisions, minor or major, its values carried by the
 * revisions' migrations, in one transaction and one page version. Values that
 * would not validate afterwards are a 400 at their paths, and nothing changes.
 */
import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import {
  AppError,
  conflict,
  notFound,
  unprocessable,
  validationError,
  type ExpectedVersions,
} from '../../shared/errors.js';
import type { BlocksService } from '../blocks/blocks.service.js';
import type { Version } from '../blocks/blocks.js';
import { chainCoverage, type MigratedValue } from '../blocks/migrations/index.js';
import type { FieldDefinition } from '../blocks/schema/index.js';
import type { InstanceBuilder } from './instance-builder.js';
import { kept, written, type PageBounds } from './page-bounds.js';
import { authorOf, expectingVersion, type PagesRepository } from './pages.js';
import type { PagesService } from './pages.service.js';
import type { RevisionChains, ValueMigrator } from './value-migrator.js';

export interface MigrateResult {
  id: number;
  from: Version;
  to: Version;
  migrated: MigratedValue[];
}

const shown = (v: Version) => `${v.major}.${v.minor}`;

export class PageBlockMigrationsService {
  constructor(
    private readonly deps: {
      pages: PagesRepository;
      pagesService: PagesService;
      blocks: BlocksService;
      chains: RevisionChains;
      instances: InstanceBuilder;
      bounds: PageBounds;
      migrator: ValueMigrator;
      clock: Clock;
    },
  ) {}

  async migrate(
    actor: Actor,
    pageId: number,
    pageBlockId: number,
    expected?: ExpectedVersions,
  ): Promise<MigrateResult> {
    const page = expectingVersion(await this.deps.pagesService.get(actor, pageId), expected);
    const existing = await this.deps.pages.blocks(pageId);
    const instance = existing.find((b) => b.id === pageBlockId);
    if (!instance) throw notFound(`Block instance ${pageBlockId} is not on this page.`);
    const block = await this.deps.blocks.get(actor, instance.block.id);
    const revision = block.revision;
    if (!revision) throw conflict('The block changed during the migration: try again.');
    const [from, to] = [instance.version, revision.version];
    if (from.major === to.major && from.minor === to.minor)
      throw unprocessable(`Instance ${pageBlockId} is already up to date (${shown(from)}).`);
    const chain = await this.deps.chains.chain(block.id, from, to);
    const coverage = chainCoverage(instance.schema_snapshot.value as FieldDefinition[], chain);
    if (!coverage.migratable) {
      const fields = coverage.uncovered.map((u) => `${u.field} (removed in ${shown(u.version)})`).join(', ');
      throw new AppError(
        'unprocessable',
        `Block ${block.id}'s migrations from ${shown(from)} to ${shown(to)} carry no value for ${fields}: ` +
          `add the steps with PUT /blocks/${block.id} (migrations), or replace the instance.`,
        {
          errors: coverage.uncovered.map((u) => ({
            path: 'root',
            message: `${u.field}: removed in ${shown(u.version)}, and no migration carries or drops it.`,
            code: 'not_allowed' as const,
          })),
          details: { uncovered_fields: coverage.uncovered.map((u) => u.field) },
        },
      );
    }
    const [outcome] = await this.deps.migrator.run([instance.placeholder_values], chain, actor.userId);
    if (outcome!.problems.length)
      throw validationError(
        'The migrations cannot make these values: see errors[]. Nothing was changed.',
        outcome!.problems.map((p) => ({
          path: `placeholder_values.${p.path}`,
          message: `${p.message} (migrations of ${shown(p.version)}, step ${p.step})`,
          code: p.code,
        })),
      );
    const values = outcome!.values;
    const errors = this.deps.instances.checkValues(block, revision, values, 'placeholder_values');
    if (errors.length)
      throw validationError(
        `Instance ${pageBlockId} would not validate on ${shown(to)} after its migrations: see errors[]. Nothing was changed.`,
        errors,
      );
    const change = this.deps.instances.pin(block, revision, {
      placeholder_values: values,
      ...(instance.bindings ? { bindings: instance.bindings } : {}),
    });
    const after = existing.map((other) =>
      other.id === pageBlockId
        ? { ...written(change, other.id, ''), parent_page_block_id: other.parent_page_block_id }
        : kept(other),
    );
    await this.deps.bounds.check(actor, page, after, { bodyPath: 'placeholder_values' });
    const read = JSON.stringify(instance.placeholder_values);
    await this.deps.pages.withPageLock(
      pageId,
      async (pages) => {
        const now = (await pages.blocks(pageId)).find((b) => b.id === pageBlockId);
        if (!now) throw notFound(`Block instance ${pageBlockId} is not on this page.`);
        if (now.revision_id !== instance.revision_id || JSON.stringify(now.placeholder_values) !== read)
          throw conflict(`Instance ${pageBlockId} changed during the migration: try again.`);
        await pages.repin({
          pageId,
          changes: [{ pageBlockId, instance: change }],
          now: this.deps.clock.now().toISOString(),
          by: authorOf(actor),
        });
      },
      expected,
    );
    return { id: pageBlockId, from, to, migrated: outcome!.migrated };
  }
}
