import type { Actor } from '../../shared/actor.js';
import type { BlocksService } from '../blocks/blocks.service.js';
import type { LoadedBlock } from '../blocks/blocks.js';
import { bindingSlots, type FieldDefinition } from '../blocks/schema/index.js';
import type { InstanceBuilder } from '../pages/instance-builder.js';
import type { Binding, PageBlock } from '../pages/pages.js';
import type { PagesService, PageWithBlocks } from '../pages/pages.service.js';
import type { PageBlockInput, PageRenderer, PublishingRepository, RenderedPage, RevisionAssets } from './publishing.js';

export interface RenderedPageWithParts {
  page: PageWithBlocks & { blocks: PageBlock[] };
  rendered: RenderedPage;
  revisions: Map<number, RevisionAssets>;
}

const richtextFields = (fields: FieldDefinition[]) => fields.filter((f) => f.type === 'richtext').map((f) => f.name);

/**
 * A page as HTML, CSS and JS: every instance with its pinned revision, bound
 * slots filled with their result type's stub (live data is the provider's job).
 */
export class PageRenderingService {
  constructor(
    private readonly deps: {
      pages: PagesService;
      blocks: BlocksService;
      publishing: PublishingRepository;
      instances: InstanceBuilder;
      renderer: PageRenderer;
    },
  ) {}

  async render(actor: Actor, pageId: number): Promise<RenderedPageWithParts> {
    const page = (await this.deps.pages.get(actor, pageId, true)) as PageWithBlocks & { blocks: PageBlock[] };
    const revisions = await this.deps.publishing.revisions([...new Set(page.blocks.map((b) => b.revision_id))]);
    const inputs = await this.inputs(
      page.blocks.map((b) => ({
        instance: b,
        fields: b.schema_snapshot as FieldDefinition[],
        assets: revisions.get(b.revision_id)!,
        blockType: b.block.block_type,
      })),
    );
    return { page, rendered: await this.deps.renderer.renderPage(inputs), revisions };
  }

  async previewPage(actor: Actor, pageId: number): Promise<string> {
    const { page, rendered } = await this.render(actor, pageId);
    return this.deps.renderer.previewDocument({ ...rendered, title: page.meta_title ?? page.name });
  }

  /** One block with the values given, checked like an instance on a page (paths start at `placeholder_values`). */
  async previewBlock(
    actor: Actor,
    blockId: number,
    input: { placeholder_values?: Record<string, unknown>; bindings?: Record<string, unknown> },
  ): Promise<string> {
    const block = await this.deps.blocks.get(actor, blockId);
    const [instance] = await this.deps.instances.build(actor, [{ block_id: blockId, ...input }], {
      pathOf: () => '',
      existing: new Map(),
    });
    const revision = block.revision!;
    const [one] = await this.inputs([
      {
        instance: {
          id: 0,
          parent_page_block_id: null,
          placeholder_values: instance!.placeholder_values,
          bindings: instance!.bindings,
          revision_id: revision.id,
        },
        fields: revision.schema_content as FieldDefinition[],
        assets: revision,
        blockType: block.block_type,
      },
    ]);
    const rendered = await this.deps.renderer.renderPage([one!]);
    return this.deps.renderer.previewDocument({ ...rendered, title: block.name });
  }

  private async inputs(
    items: Array<{
      instance: Pick<PageBlock, 'id' | 'parent_page_block_id' | 'placeholder_values' | 'bindings' | 'revision_id'>;
      fields: FieldDefinition[];
      assets: RevisionAssets;
      blockType: LoadedBlock['block_type'];
    }>,
  ): Promise<PageBlockInput[]> {
    const chosen = items.map(({ instance, fields }) =>
      bindingSlots(fields).map((slot) => ({
        name: slot.name,
        binding: (instance.bindings?.[slot.name] as Binding | undefined) ?? slot.default,
      })),
    );
    const sources = [...new Set(chosen.flat().flatMap((c) => (c.binding ? [c.binding.source] : [])))];
    const stubs = await this.deps.publishing.stubs(sources);
    return items.map(({ instance, fields, assets, blockType }, i) => ({
      id: instance.id,
      parentId: instance.parent_page_block_id,
      revisionId: instance.revision_id,
      template: assets.template,
      css: assets.css,
      js: assets.js,
      values: instance.placeholder_values,
      // A slot left unbound takes its default; with neither, the template sees an empty list.
      slots: Object.fromEntries(chosen[i]!.map((c) => [c.name, c.binding ? (stubs.get(c.binding.source) ?? []) : []])),
      blockType: blockType === 'markdown' ? 'markdown' : 'schema',
      richtextFields: richtextFields(fields),
    }));
  }
}
