import type { Actor } from '../../shared/actor.js';
import { fieldError, validationError, type ExpectedVersions } from '../../shared/errors.js';
import { nestedIn, type InstanceInput } from './instance-builder.js';
import { kept, written, type ProposedInstance } from './page-bounds.js';
import { currentPage, instanceOn, type PageInstancesDeps } from './page-instances.js';
import { authorOf, type PageBlock, type WrittenPage } from './pages.js';

/** Block instances of one page: adding, moving, values, replacing (pins moved forward: `PageBlockUpgradesService`). */
export class PageBlocksService {
  constructor(private readonly deps: PageInstancesDeps) {}

  /** Inserts at a 0-based position of the page's order (default: the end). */
  async add(
    actor: Actor,
    pageId: number,
    input: { blocks: InstanceInput[]; position?: number },
    expected?: ExpectedVersions,
  ): Promise<WrittenPage> {
    const { page, existing } = await currentPage(this.deps, actor, pageId, expected);
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
    const { page, existing } = await currentPage(this.deps, actor, pageId, expected);
    const moved = instanceOn(existing, pageBlockId);
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
    instanceOn((await currentPage(this.deps, actor, pageId, expected)).existing, pageBlockId);
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
    const { page, existing } = await currentPage(this.deps, actor, pageId, expected);
    const instance = instanceOn(existing, pageBlockId);
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

  /** A new instance of `block_id` in the old one's place, pinned to its current revision. */
  async replace(
    actor: Actor,
    pageId: number,
    pageBlockId: number,
    input: { block_id: number; placeholder_values: Record<string, unknown> },
    expected?: ExpectedVersions,
  ): Promise<number> {
    const { page, existing } = await currentPage(this.deps, actor, pageId, expected);
    const old = instanceOn(existing, pageBlockId);
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

  /** The page's instances in order, `id` replaced by `instance`. */
  private replacing(existing: Map<number, PageBlock>, id: number, instance: ProposedInstance): ProposedInstance[] {
    return [...existing.values()].map((other) => (other.id === id ? instance : kept(other)));
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

  private now() {
    return this.deps.clock.now().toISOString();
  }
}
