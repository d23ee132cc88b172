/**
 * Moving a page's instances to their block's current revision: one instance
 * (`POST /pages/{pageId}/blocks/{pbId}/upgrade`) or every minor upgrade of the
 * page at once (`POST /pages/{pageId}/blocks/upgrade-all`). Values are kept and
 * new fields take their defaults; a major change is refused with what it would
 * remove, and whether `migrate` (`PageBlockMigrationsService`) takes it.
 */
import type { Actor } from '../../shared/actor.js';
import { AppError, conflict, unprocessable, type ExpectedVersions } from '../../shared/errors.js';
import type { LoadedBlock, Version } from '../blocks/blocks.js';
import { removedFields } from '../blocks/schema/index.js';
import { kept, written } from './page-bounds.js';
import { currentPage, instanceOn, instancesOf, type PageInstancesDeps } from './page-instances.js';
import { authorOf, type NewInstance, type Page, type PageBlock } from './pages.js';
import { chainKey, migratability, type RevisionChains } from './value-migrator.js';

export interface UpgradeAllResult {
  upgraded: Array<{ id: number; from: Version; to: Version }>;
  skipped_major: Array<{
    id: number;
    current_pin: Version;
    library_version: Version;
    removed_fields: string[];
    /** Every removed field is carried or dropped by the migrations on the way: `migrate` takes it. */
    migratable: boolean;
  }>;
  already_up_to_date: number[];
}

/** The pins of one page's instances moved forward, under the page's lock. */
export class PageBlockUpgradesService {
  constructor(
    private readonly deps: PageInstancesDeps & {
      /** Whether a major upgrade is migratable (`migratable` of a blocked one). */
      chains: RevisionChains;
    },
  ) {}

  /** Minor only: values kept, new fields take their defaults. A major change is refused with what it would remove. */
  async upgrade(actor: Actor, pageId: number, pageBlockId: number, expected?: ExpectedVersions): Promise<void> {
    const { blocks, page, existing, migratable } = await this.libraryBlocks(actor, pageId, expected);
    await this.checkUpgrades(actor, page, existing, blocks, [pageBlockId]);
    await this.deps.pages.withPageLock(
      pageId,
      async (pages) => {
        const instance = instanceOn(await instancesOf(pages, pageId), pageBlockId);
        if (instance.update_status === 'up_to_date') {
          throw unprocessable(
            `Instance ${pageBlockId} is already up to date (${instance.version.major}.${instance.version.minor}).`,
          );
        }
        const { change, blocked } = this.plan(instance, blocks, migratable);
        if (blocked) {
          const { current_pin: from, library_version: to } = blocked;
          const way = blocked.migratable
            ? `its migrations carry every removed field: POST /pages/${pageId}/blocks/${pageBlockId}/migrate`
            : `carry the removed fields over with PUT /pages/${pageId}/blocks/${pageBlockId}/replace`;
          throw new AppError('unprocessable', 'major_upgrade_blocked', {
            details: {
              message:
                `Block ${instance.block.id} changed in a breaking way (${from.major}.${from.minor} → ${to.major}.${to.minor}); ` +
                `${way}.`,
              ...blocked,
            },
          });
        }
        await pages.repin({ pageId, changes: [change!], now: this.now(), by: authorOf(actor) });
      },
      expected,
    );
  }

  /** All minor upgrades of the page or none, under the page's lock; majors are reported, not touched. */
  async upgradeAll(actor: Actor, pageId: number, expected?: ExpectedVersions): Promise<UpgradeAllResult> {
    const { blocks, page, existing, migratable } = await this.libraryBlocks(actor, pageId, expected);
    await this.checkUpgrades(actor, page, existing, blocks, [...existing.keys()]);
    return this.deps.pages.withPageLock(
      pageId,
      async (pages) => {
        const result: UpgradeAllResult = { upgraded: [], skipped_major: [], already_up_to_date: [] };
        const changes: Array<{ pageBlockId: number; instance: NewInstance }> = [];
        for (const instance of (await instancesOf(pages, pageId)).values()) {
          if (instance.update_status === 'up_to_date') {
            result.already_up_to_date.push(instance.id);
            continue;
          }
          const { change, blocked } = this.plan(instance, blocks, migratable);
          if (blocked) result.skipped_major.push({ id: instance.id, ...blocked });
          else {
            changes.push(change!);
            result.upgraded.push({ id: instance.id, from: instance.version, to: change!.instance.version });
          }
        }
        await pages.repin({ pageId, changes, now: this.now(), by: authorOf(actor) });
        return result;
      },
      expected,
    );
  }

  private plan(
    instance: PageBlock,
    blocks: Map<number, LoadedBlock>,
    migratable: Map<string, boolean> = new Map(),
  ): {
    change?: { pageBlockId: number; instance: NewInstance };
    blocked?: { current_pin: Version; library_version: Version; removed_fields: string[]; migratable: boolean };
  } {
    const block = blocks.get(instance.block.id);
    // An instance added after the blocks were read: the caller's view is stale.
    if (!block?.revision) throw conflict('The page changed during the upgrade: try again.');
    const revision = block.revision;
    const removed = removedFields(instance.schema_snapshot.value, revision.schema_content);
    if (revision.version.major !== instance.version.major || removed.length) {
      return {
        blocked: {
          current_pin: instance.version,
          library_version: revision.version,
          removed_fields: removed,
          migratable: migratable.get(chainKey(instance.block.id, instance.version)) ?? false,
        },
      };
    }
    // New fields take their defaults (only real ones: nothing is invented); given values stay.
    const defaults = Object.fromEntries(
      revision.schema_content
        .filter((f) => f.type !== 'binding' && f.default !== undefined)
        .map((f) => [f.name, f.default]),
    );
    const values = { ...defaults, ...instance.placeholder_values };
    const errors = this.deps.instances.checkValues(block, revision, values, 'placeholder_values');
    if (errors.length) {
      throw unprocessable(
        `Instance ${instance.id} cannot take version ${revision.version.major}.${revision.version.minor} without new values: replace it instead.`,
        errors,
      );
    }
    return {
      change: {
        pageBlockId: instance.id,
        instance: this.deps.instances.pin(block, revision, {
          placeholder_values: values,
          ...(instance.bindings ? { bindings: instance.bindings } : {}),
        }),
      },
    };
  }

  /**
   * The library blocks of a page's instances, read before the page's lock is
   * taken: inside it only the transaction may touch the database (SQLite has
   * one connection, which the transaction holds).
   */
  private async libraryBlocks(actor: Actor, pageId: number, expected: ExpectedVersions) {
    const { page, existing } = await currentPage(this.deps, actor, pageId, expected);
    const ids = [...new Set([...existing.values()].map((i) => i.block.id))];
    const blocks = await this.deps.blocks.readable(actor, ids);
    // One that cannot be read: get() says why, as it did when each was read alone.
    for (const id of ids) if (!blocks.has(id)) await this.deps.blocks.get(actor, id);
    return { blocks, page, existing, migratable: await migratability(this.deps.chains, existing.values(), blocks) };
  }

  /**
   * The page's bounds after the minor upgrades of `ids`, planned from the page
   * as read before the lock (the render must not run inside it: on SQLite the
   * lock's transaction holds the one connection). An upgrade that cannot be
   * made is left to the locked work, which refuses it as before. Each
   * upgraded instance is at `blocks[i]`, its place in the page's order.
   */
  private async checkUpgrades(
    actor: Actor,
    page: Page,
    existing: Map<number, PageBlock>,
    blocks: Map<number, LoadedBlock>,
    ids: number[],
  ): Promise<void> {
    const changes = new Map<number, NewInstance>();
    for (const id of ids) {
      const instance = existing.get(id);
      if (!instance || instance.update_status === 'up_to_date') continue;
      try {
        const { change } = this.plan(instance, blocks);
        if (change) changes.set(id, change.instance);
      } catch {
        // Refused inside the lock, with its own answer.
      }
    }
    if (changes.size === 0) return;
    const after = [...existing.values()].map((instance, i) => {
      const change = changes.get(instance.id);
      return change
        ? { ...written(change, instance.id, `blocks[${i}]`), parent_page_block_id: instance.parent_page_block_id }
        : kept(instance);
    });
    await this.deps.bounds.check(actor, page, after);
  }

  private now() {
    return this.deps.clock.now().toISOString();
  }
}
