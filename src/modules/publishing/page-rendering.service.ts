import type { Actor } from '../../shared/actor.js';
import { AppError } from '../../shared/errors.js';
import type { InstanceToRender, RenderedInstance } from '../pages/upgrade-plan.js';
import type { BlocksService } from '../blocks/blocks.service.js';
import type { LoadedBlock, Revision } from '../blocks/blocks.js';
import { bindingSlots, imageSpots, renderDefaults, type FieldDefinition } from '../blocks/schema/index.js';
import type { InstanceBuilder } from '../pages/instance-builder.js';
import { applyDraft, type DraftInstance } from './page-draft.js';
import { KeptRevisionAssets } from './revision-assets.js';
import { ownPage, type Binding, type PageBlock } from '../pages/pages.js';
import type { ProposedInstance, RenderedSize } from '../pages/page-bounds.js';
import {
  overflowIndex,
  type KeptDocuments,
  type PageBlockInput,
  type PageRenderer,
  type RenderablePage,
  type RenderFor,
  type RenderedPage,
  type RenderingRepository,
  type RenderValues,
  type RevisionAssets,
} from './publishing.js';

/** What the kept revisions' assets may hold: a few hundred revisions of typical templates. */
const REVISION_ASSETS_BYTES = 4 * 1024 * 1024;

const richtextFields = (fields: FieldDefinition[]) => fields.filter((f) => f.type === 'richtext').map((f) => f.name);

/**
 * A page as HTML, CSS and JS: every instance with its pinned revision, bound
 * slots filled with their result type's stub (live data is the provider's job).
 */
export class PageRenderingService implements RenderedSize {
  constructor(
    private readonly deps: {
      rows: RenderingRepository;
      blocks: BlocksService;
      instances: InstanceBuilder;
      renderer: PageRenderer;
      /** Preview documents kept across requests, by everything that decides them. */
      previews: KeptDocuments;
    },
  ) {
    this.#assets = new KeptRevisionAssets(REVISION_ASSETS_BYTES, (ids) => this.deps.rows.revisions(ids));
  }

  /** Revisions' template, CSS and JS, kept across requests (they never change): a page write's bound reads none. */
  readonly #assets: KeptRevisionAssets;

  /** The actor's page with everything its rendering needs, read once. */
  async read(actor: Actor, pageId: number): Promise<RenderablePage> {
    const source = await this.deps.rows.page(pageId);
    ownPage(actor, pageId, source?.page);
    return source!;
  }

  /** The page rendered for `renderFor`: whose turn it takes in the shared pool, and why. */
  async render(page: RenderablePage, renderFor: RenderFor): Promise<RenderedPage> {
    return this.deps.renderer.renderPage(await this.pageInputs(page), renderFor);
  }

  private pageInputs({ instances }: RenderablePage): Promise<PageBlockInput[]> {
    return this.inputs(
      instances.map((b) => ({
        instance: b,
        fields: b.schema_snapshot as FieldDefinition[],
        assets: b.revision,
        blockType: b.block_type,
      })),
    );
  }

  /**
   * The page as HTML with stub data. With `draft`, the page as an editor holds
   * it before saving (`applyDraft`): rendered by the same pool, within the
   * same budget, and nothing is written. With `marks`, each block's HTML is
   * between comments naming its instance (`markBlock`).
   */
  async previewPage(
    actor: Actor,
    pageId: number,
    draft?: { blocks?: DraftInstance[] },
    /** Aborted when the requester goes away: a render still waiting gives its place back. */
    signal?: AbortSignal,
    { marks = false }: { marks?: boolean } = {},
  ): Promise<Buffer> {
    const saved = await this.read(actor, pageId);
    const source = draft?.blocks
      ? { ...saved, instances: await applyDraft(saved.instances, draft.blocks, this.deps.instances) }
      : saved;
    return this.previewOf(actor, source, signal, { marks });
  }

  /**
   * A page as given (a page's version, read from its history) as a preview
   * document: `previewPage`'s bytes. A document kept for the same inputs is
   * answered as it is (`KeptPreviews`): it takes no turn on the render threads.
   */
  async previewOf(
    actor: Actor,
    source: RenderablePage,
    signal?: AbortSignal,
    { marks = false }: { marks?: boolean } = {},
  ): Promise<Buffer> {
    const inputs = await this.pageInputs(source);
    const title = source.page.meta_title ?? source.page.name;
    const key = this.deps.previews.keyOf(inputs, { title, marks });
    const kept = key === undefined ? undefined : this.deps.previews.get(key);
    if (kept !== undefined) return kept;
    const rendered = await this.deps.renderer.renderPage(inputs, {
      userId: actor.userId,
      purpose: 'preview',
      ...(signal && { signal }),
      ...(marks ? { marks } : {}),
    });
    const bytes = Buffer.from(this.deps.renderer.previewDocument({ ...rendered, title }));
    if (key !== undefined) this.deps.previews.set(key, bytes);
    return bytes;
  }

  /**
   * Where the page's HTML would go over its bound, rendered as a preview
   * would render it (stub data), in `actor`'s turn on the shared pool (never
   * refused: the write waits its turn). A render that fails for another reason
   * (its time, its heap) says nothing of the size: the write goes ahead, and
   * the page's preview reports it.
   */
  async overflow(actor: Actor, instances: ProposedInstance[]): Promise<{ index: number; message: string } | undefined> {
    if (instances.length === 0) return undefined;
    const ids = [...new Set(instances.map((i) => i.revision_id))];
    // With every instance's block type known to the write, the revisions' kept assets are all it needs.
    const known = instances.every((i) => i.block_type !== undefined);
    const revisions: Map<number, RevisionAssets & { block_type?: LoadedBlock['block_type'] }> = known
      ? await this.#assets.of(ids)
      : await this.deps.rows.revisions(ids);
    // Fields parsed once a revision: its instances share its snapshot.
    const fields = new Map<number, FieldDefinition[]>();
    const items = instances.flatMap((instance) => {
      const assets = revisions.get(instance.revision_id);
      // A revision gone meanwhile: the write itself finds its block missing.
      if (!assets) return [];
      let own = fields.get(assets.id);
      if (!own) fields.set(assets.id, (own = instance.schema_snapshot.value as FieldDefinition[]));
      const blockType = known ? instance.block_type! : (assets.block_type ?? null);
      return [{ instance, fields: own, assets, blockType }];
    });
    if (items.length < instances.length) return undefined;
    const inputs = await this.inputs(items);
    // Most pages surely fit, said from their templates and values: only the others are rendered.
    if (this.deps.renderer.surelyFits?.(inputs)) return undefined;
    try {
      await this.deps.renderer.renderPage(inputs, { userId: actor.userId, purpose: 'write' });
      return undefined;
    } catch (error) {
      const index = overflowIndex(error);
      if (index === undefined) return undefined;
      return { index, message: (error as Error).message };
    }
  }

  /** `overflow` of several pages (an upgrade set's), in their order. */
  async overflowEach(
    actor: Actor,
    pages: ProposedInstance[][],
  ): Promise<Array<{ index: number; message: string } | undefined>> {
    const out: Array<{ index: number; message: string } | undefined> = [];
    for (const instances of pages) out.push(await this.overflow(actor, instances));
    return out;
  }

  /** A rendered document's outline, made in the actor's turn on the render threads. */
  outline(actor: Actor, html: string): Promise<string> {
    return this.deps.renderer.outline(html, { userId: actor.userId, purpose: 'preview' });
  }

  /**
   * One block with the values given, checked like an instance on a page (paths
   * start at `placeholder_values`). A template that cannot be rendered is a 422
   * at `template`: there is no page, and the block's template is what to fix.
   */
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
    return this.previewRevision(block, block.revision!, instance!, { userId: actor.userId, purpose: 'preview' });
  }

  /**
   * One revision of a block with the values given, taken as checked (a
   * block's example, or an instance built from a request). The caller has
   * decided that the actor may see it: a block preview, or a submission that
   * an administrator reviews.
   */
  async previewRevision(
    block: { id: number; name: string; block_type: LoadedBlock['block_type'] },
    revision: Revision,
    values: Pick<PageBlock, 'placeholder_values' | 'bindings'>,
    /** Whose turn on the shared render threads it takes. */
    renderFor: RenderFor,
  ): Promise<string> {
    const [one] = await this.inputs([
      {
        instance: {
          id: 0,
          parent_page_block_id: null,
          placeholder_values: values.placeholder_values,
          bindings: values.bindings,
        },
        fields: revision.schema_content,
        assets: revision,
        blockType: block.block_type,
      },
    ]);
    const rendered = await this.deps.renderer.renderAlone(one!, block.id, renderFor);
    return this.deps.renderer.previewDocument({ ...rendered, title: block.name });
  }

  /**
   * Instances of one block at given revisions and values, each one's own HTML
   * with stub data (an upgrade plan's before and after): one task on the
   * shared threads in the actor's turn, as a preview. When that task fails
   * (one instance that cannot render, or their HTML together over the page's
   * bound), each is rendered alone, and the one that fails says why.
   */
  async renderInstances(actor: Actor, items: InstanceToRender[], signal?: AbortSignal): Promise<RenderedInstance[]> {
    if (items.length === 0) return [];
    const revisions = await this.deps.rows.revisions([...new Set(items.map((i) => i.revisionId))]);
    const assets = items.map((item) => revisions.get(item.revisionId));
    const inputs = await this.inputs(
      items.flatMap((item, i) => {
        const revision = assets[i];
        if (!revision) return [];
        const instance = {
          id: i + 1,
          parent_page_block_id: null,
          placeholder_values: item.values,
          bindings: item.bindings,
        };
        return [{ instance, fields: item.fields, assets: revision, blockType: revision.block_type }];
      }),
    );
    const renderFor: RenderFor = { userId: actor.userId, purpose: 'preview', ...(signal && { signal }) };
    let html: (string | Error)[];
    try {
      html = await this.deps.renderer.renderEach(inputs, renderFor);
    } catch (error) {
      if (!(error instanceof AppError) || error.kind !== 'unprocessable') throw error;
      html = [];
      for (const input of inputs) html.push(await this.renderOne(input, renderFor));
    }
    let next = 0;
    return assets.map((revision) => {
      if (!revision) return { error: 'The revision is gone.' };
      const out = html[next++]!;
      return out instanceof Error ? { error: renderFailure(out) } : { html: out, css: revision.css, js: revision.js };
    });
  }

  /** One instance's own HTML, or the render error that refused it. */
  private async renderOne(input: PageBlockInput, renderFor: RenderFor): Promise<string | AppError> {
    try {
      const [html] = await this.deps.renderer.renderEach([input], renderFor);
      return html!;
    } catch (error) {
      if (error instanceof AppError && error.kind === 'unprocessable') return error;
      throw error;
    }
  }

  private async inputs(
    items: Array<{
      instance: Pick<PageBlock, 'id' | 'parent_page_block_id' | 'bindings'> & { placeholder_values: RenderValues };
      fields: FieldDefinition[];
      assets: RevisionAssets;
      blockType: LoadedBlock['block_type'];
    }>,
  ): Promise<PageBlockInput[]> {
    const chosen = items.map(({ instance, fields }) =>
      bindingSlots(fields).map((slot) => ({
        name: slot.name,
        binding: instance.bindings?.[slot.name] ?? slot.default,
      })),
    );
    const sources = [...new Set(chosen.flat().flatMap((c) => (c.binding ? [c.binding.source] : [])))];
    const stubs = await this.deps.rows.stubs(sources);
    return items.map(({ instance, fields, assets, blockType }, i) => ({
      // Fields left out render with their defaults; the values stay as stored.
      defaults: renderDefaults(fields),
      images: imageSpots(fields),
      id: instance.id,
      parentId: instance.parent_page_block_id,
      revisionId: assets.id,
      template: assets.template,
      css: assets.css,
      js: assets.js,
      values: instance.placeholder_values,
      // A slot left unbound takes its default; with neither, the template sees an empty list.
      slots: Object.fromEntries(
        chosen[i]!.map((c) => [c.name, c.binding ? stubFor(stubs.get(c.binding.source) ?? [], c.binding) : []]),
      ),
      blockType: blockType === 'markdown' ? 'markdown' : 'schema',
      richtextFields: richtextFields(fields),
    }));
  }
}

/**
 * A source's stub as the binding would get live data: a list cut to the
 * binding's `limit` (a preview of "the latest 2" shows two items, not the
 * stub's three). Other params (sort, rubric) have nothing to act on in a stub.
 */
function stubFor(stub: unknown, binding: Binding): unknown {
  const limit = binding.params?.limit;
  if (!Array.isArray(stub) || typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0) return stub;
  return stub.slice(0, limit);
}

/**
 * A render failure of an instance rendered outside its page, in words that
 * name no stand-in id: the renderer's detail when it gives one (a RenderError's).
 */
function renderFailure(error: Error): string {
  const detail: unknown = Reflect.get(error, 'detail');
  return typeof detail === 'string' ? `The template cannot be rendered: ${detail}` : error.message;
}
