import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import {
  AppError,
  conflict,
  fieldError,
  notFound,
  unprocessable,
  validationError,
  type ExpectedVersions,
} from '../../shared/errors.js';
import type { BlocksService } from '../blocks/blocks.service.js';
import type { LoadedBlock, Version } from '../blocks/blocks.js';
import { removedFields } from '../blocks/schema/index.js';
import { chainKey, migratability, type RevisionChains } from './value-migrator.js';
import { nestedIn, type InstanceBuilder, type InstanceInput } from './instance-builder.js';
import { kept, written, type PageBounds, type ProposedInstance } from './page-bounds.js';
import {
  authorOf,
  expectingVersion,
  type NewInstance,
  type Page,
  type PageBlock,
  type PagesRepository,
  type WrittenPage,
} from './pages.js';
import type { PagesService } from './pages.service.js';

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

/** Block instances of one page: adding, moving, values, and moving pins forward. */
export class PageBlocksService {
  constructor(
    private readonly deps: {
      pages: PagesRepository;
      pagesService: PagesService;
      blocks: BlocksService;
      instances: InstanceBuilder;
      bounds: PageBounds;
      clock: Clock;
      /** Whether a major upgrade is migratable (`migratable` of a blocked one). */
      chains: RevisionChains;
    },
  ) {}

  /** Inserts at a 0-based position of the page's order (default: the end). */
  async add(
    actor: Actor,
    pageId: number,
    input: { blocks: InstanceInput[]; position?: number },
    expected?: ExpectedVersions,
  ): Promise<WrittenPage> {
    const { page, existing } = await this.current(actor, pageId, expected);
    const { position } = input;
    if (position !== undefined && (position < 0 || position > existing.size))
      throw await this.refusedPosition(actor, pageId, `position must be within 0..${existing.size}.`);
    const instances = await this.deps.instances.build(actor, input.blocks, { pathOf: (i) => `blocks[${i}]`, existing });
    const after = [...existing.values()].map(kept);
    after.splice(
      position ?? after.length,
      0,
      ...instances.map((instance, i) => written(instance, -(i + 1), `blocks[${i}]`)),
    );
    await this.deps.bounds.check(actor, page, after);
    // Without a position the end is taken under the page's lock: other instances may go meanwhile.
    return this.deps.pages.insertBlocks({
      pageId,
      ...(position !== undefined && { position }),
      instances,
      now: this.now(),
      by: authorOf(actor),
      expected,
    });
  }

  /**
   * To a 0-based position of the page's order and, when `parentId` is given,
   * into that layout instance (null: out of any layout). A layout never goes
   * into itself or into a block nested in it.
   */
  async move(
    actor: Actor,
    pageId: number,
    pageBlockId: number,
    position: number,
    parentId?: number | null,
    expected?: ExpectedVersions,
  ): Promise<void> {
    const { page, existing } = await this.current(actor, pageId, expected);
    const moved = this.instance(existing, pageBlockId);
    if (position < 0 || position >= existing.size)
      throw await this.refusedPosition(actor, pageId, `position must be within 0..${existing.size - 1}.`);
    if (parentId !== undefined && parentId !== null) {
      const errors = this.deps.instances.checkParent(parentId, '', existing);
      if (errors.length) throw validationError('The block cannot go there: see errors[].', errors);
      if (nestedIn(existing, parentId, pageBlockId))
        throw fieldError(
          'parent_page_block_id',
          `Instance ${parentId} is instance ${pageBlockId} or nested in it: a block cannot go into itself.`,
        );
    }
    // Its JSON stays as it is; its HTML may not, inside another layout (which may show its children twice).
    if (parentId !== undefined && parentId !== moved.parent_page_block_id) {
      const after = [...existing.values()].filter((i) => i.id !== pageBlockId).map(kept);
      after.splice(position, 0, { ...kept(moved), parent_page_block_id: parentId, at: '' });
      await this.deps.bounds.check(actor, page, after, { json: false, bodyPath: 'parent_page_block_id' });
    }
    await this.deps.pages.moveBlock({
      pageId,
      pageBlockId,
      position,
      parentId,
      now: this.now(),
      by: authorOf(actor),
      expected,
    });
  }

  async remove(actor: Actor, pageId: number, pageBlockId: number, expected?: ExpectedVersions): Promise<void> {
    this.instance((await this.current(actor, pageId, expected)).existing, pageBlockId);
    await this.deps.pages.deleteBlock({ pageId, pageBlockId, now: this.now(), by: authorOf(actor), expected });
  }

  /** New values for an instance, checked against its pinned revision (the pin does not move). */
  async updateValues(
    actor: Actor,
    pageId: number,
    pageBlockId: number,
    input: { placeholder_values?: Record<string, unknown>; bindings?: Record<string, unknown> | null },
    expected?: ExpectedVersions,
  ) {
    const { page, existing } = await this.current(actor, pageId, expected);
    const instance = this.instance(existing, pageBlockId);
    const block = await this.deps.blocks.get(actor, instance.block.id);
    const sent = input.placeholder_values ?? instance.placeholder_values;
    const bindings = input.bindings === undefined ? instance.bindings : input.bindings;
    const errors = await this.deps.instances.checkPinned([
      { instance, blockType: block.block_type, values: sent, bindings: bindings ?? undefined, at: '' },
    ]);
    if (errors.length) throw validationError('Block validation failed: see errors[].', errors);
    const values = this.deps.instances.pinnedValues(instance, sent);
    const stored = bindings && Object.keys(bindings).length ? (bindings as PageBlock['bindings']) : null;
    await this.deps.bounds.check(
      actor,
      page,
      this.replacing(existing, pageBlockId, {
        ...kept(instance),
        placeholder_values: values,
        bindings: stored,
        at: '',
      }),
      { bodyPath: 'placeholder_values' },
    );
    await this.deps.pages.updateBlock({
      pageId,
      pageBlockId,
      values,
      bindings: stored,
      now: this.now(),
      by: authorOf(actor),
      expected,
    });
  }

  /** Minor only: values kept, new fields take their defaults. A major change is refused with what it would remove. */
  async upgrade(actor: Actor, pageId: number, pageBlockId: number, expected?: ExpectedVersions): Promise<void> {
    const { blocks, page, existing, migratable } = await this.libraryBlocks(actor, pageId, expected);
    await this.checkUpgrades(actor, page, existing, blocks, [pageBlockId]);
    await this.deps.pages.withPageLock(
      pageId,
      async (pages) => {
        const instance = this.instance(await this.lockedInstances(pages, pageId), pageBlockId);
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
        for (const instance of (await this.lockedInstances(pages, pageId)).values()) {
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

  /** A new instance of `block_id` in the old one's place, pinned to its current revision. */
  async replace(
    actor: Actor,
    pageId: number,
    pageBlockId: number,
    input: { block_id: number; placeholder_values: Record<string, unknown> },
    expected?: ExpectedVersions,
  ): Promise<number> {
    const { page, existing } = await this.current(actor, pageId, expected);
    const old = this.instance(existing, pageBlockId);
    const [instance] = await this.deps.instances.build(
      actor,
      [{ ...input, bindings: old.block.id === input.block_id ? (old.bindings ?? undefined) : undefined }],
      {
        pathOf: () => '',
        existing,
      },
    );
    // In the old one's place, with its parent and its children (which keep naming it by its id).
    const placed = { ...written(instance!, pageBlockId, ''), parent_page_block_id: old.parent_page_block_id };
    await this.deps.bounds.check(actor, page, this.replacing(existing, pageBlockId, placed), { bodyPath: 'block_id' });
    return this.deps.pages.replaceBlock({
      pageId,
      pageBlockId,
      instance: instance!,
      now: this.now(),
      by: authorOf(actor),
      expected,
    });
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
    const { page, existing } = await this.current(actor, pageId, expected);
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

  /** The page's instances in order, `id` replaced by `instance`. */
  private replacing(existing: Map<number, PageBlock>, id: number, instance: ProposedInstance): ProposedInstance[] {
    return [...existing.values()].map((other) => (other.id === id ? instance : kept(other)));
  }

  private async lockedInstances(pages: PagesRepository, pageId: number): Promise<Map<number, PageBlock>> {
    return new Map((await pages.blocks(pageId)).map((b) => [b.id, b]));
  }

  /** The actor's page and its instances, in order. */
  /** With `expected`: the 412 when the page is at another version, before anything in the body is looked at. */
  private async current(
    actor: Actor,
    pageId: number,
    expected?: ExpectedVersions,
  ): Promise<{ page: Page; existing: Map<number, PageBlock> }> {
    const page = expectingVersion(await this.deps.pagesService.get(actor, pageId), expected);
    return { page, existing: await this.lockedInstances(this.deps.pages, pageId) };
  }

  /**
   * The position's 400, unless the page was deleted between its read and its
   * instances' (which then read as none): a write that lost to the delete is
   * answered as when the page was already gone, 404.
   */
  private async refusedPosition(actor: Actor, pageId: number, message: string): Promise<Error> {
    await this.deps.pagesService.get(actor, pageId);
    return fieldError('position', message);
  }

  private instance(existing: Map<number, PageBlock>, pageBlockId: number): PageBlock {
    const instance = existing.get(pageBlockId);
    if (!instance) throw notFound(`Block instance ${pageBlockId} is not on this page.`);
    return instance;
  }

  private now() {
    return this.deps.clock.now().toISOString();
  }
}
