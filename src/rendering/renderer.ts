/**
 * Liquid templates → HTML, for previews and publication. Templates are
 * untrusted (any user writes them), so every render runs under liquidjs's
 * parse, time and memory limits, cannot reach the file system, and every
 * failure comes back as a RenderError naming the block and revision.
 */
import { outlineOf } from '../shared/html-outline.js';
import { fillDefaults, type RenderDefaults } from '../modules/blocks/schema/render-defaults.js';
import type { ImageSpots } from '../modules/blocks/schema/image-spots.js';
import { Drop, Liquid, LiquidError, filters as liquidFilters, type Context, type Template } from 'liquidjs';
import {
  valuesOf,
  type BlockType,
  type PageBlockInput,
  type PageRenderer,
  type RenderedPage,
  type RenderFor,
} from '../modules/publishing/publishing.js';
import { composePage, type BlockRenderInput } from './compose.js';
import { isDeterministic, OutputCache, templateCache, type ParsedTemplate, type TemplateCache } from './caches.js';
import { renderMarkdown } from './markdown.js';
import { wrapImages } from './image-values.js';
import { capRanges, RangeLimitError } from './range-cap.js';
import { sanitizeRichText } from './sanitize.js';
import { DEFAULT_RENDERER_OPTIONS, type RendererOptions } from './renderer-options.js';
import { RenderError, type RenderFailure } from './render-error.js';
import { previewDocument } from './preview-document.js';

// Apart so that the main thread's pool loads none of liquidjs, marked or sanitize-html (bench B5).
export { DEFAULT_RENDERER_OPTIONS, RenderError, previewDocument, type RendererOptions, type RenderFailure };

export type { BlockRenderInput, BlockType, PageBlockInput, RenderedPage };

/**
 * HTML the service produced and sanitized itself (`children`, `_markdown`,
 * `richtext`). A Drop, because a template cannot create one: whatever a
 * template builds from it with a filter is a plain string again, and escaped.
 */
class TrustedHtml extends Drop {
  readonly #html: string;
  constructor(html: string) {
    super();
    this.#html = html;
  }
  override valueOf(): string {
    return this.#html;
  }
  override toString(): string {
    return this.#html;
  }
}

const MARKDOWN_FIELDS = ['_markdown'];
const own = (scope: Record<string, unknown>, name: string) => (Object.hasOwn(scope, name) ? scope[name] : undefined);
/** Defined, never assigned: a name such as `__proto__` stays a plain key. */
const put = (scope: Record<string, unknown>, name: string, value: unknown) =>
  Object.defineProperty(scope, name, { value, enumerable: true, writable: true, configurable: true });

const liquidEscape = liquidFilters['escape'] as (this: { context: Context }, value: unknown) => string;

/**
 * The default output filter. liquidjs's `outputEscape: 'escape'` unwraps a
 * Drop before escaping, so it offers no way to let trusted HTML through
 * except `| raw` in the template; this is that same `escape` filter, with
 * TrustedHtml let through (and still charged to the memory limit).
 */
function escapeUnlessTrusted(this: { context: Context }, value: unknown): string {
  if (value instanceof TrustedHtml) {
    const html = value.valueOf();
    this.context.memoryLimit.use(html.length);
    return html;
  }
  return liquidEscape.call(this, value);
}

function rootCause(error: unknown): unknown {
  let current = error;
  while (LiquidError.is(current) && current.originalError) current = current.originalError;
  return current;
}

/** The `PageRenderer` of the publishing module, in process. */
export class Renderer implements PageRenderer {
  readonly options: Readonly<Required<RendererOptions>>;
  readonly #liquid: Liquid;
  readonly #cache: TemplateCache;
  readonly #outputs: OutputCache;

  constructor(options: RendererOptions = {}) {
    this.options = { ...DEFAULT_RENDERER_OPTIONS, ...options };
    this.#liquid = new Liquid({
      outputEscape: escapeUnlessTrusted,
      parseLimit: this.options.parseLimit,
      renderLimit: this.options.renderLimit,
      memoryLimit: this.options.memoryLimit,
      // An empty in-memory file system: `include`, `render` and `layout` can never read the disk.
      templates: {},
      // `{{ x.constructor }}` and the like see nothing of JavaScript prototypes.
      ownPropertyOnly: true,
    });
    this.#cache = templateCache(this.options.cacheSize);
    this.#outputs = new OutputCache(this.options.outputCacheSize);
  }

  /**
   * Renders one block. The parsed template is cached by `revisionId` alone:
   * revisions are immutable, so a second call with the same id and another
   * template string renders the cached (original) template, by design.
   * Its HTML is kept too, by revision and a digest of every other input,
   * unless the template uses a date filter (it may show the time).
   */
  async renderBlock(input: BlockRenderInput): Promise<string> {
    return this.#render(input);
  }

  /**
   * Renders a page's blocks in the given order, each child (by `parentId`, in
   * order) into its parent's `children`. CSS and JS come once per revision, in
   * the order the blocks appear in the HTML. In process, nothing is shared:
   * whom the page is for changes nothing.
   */
  async renderPage(blocks: PageBlockInput[], renderFor?: RenderFor): Promise<RenderedPage> {
    return this.renderInto(blocks, undefined, undefined, renderFor?.marks);
  }

  /** `renderPage` for a render thread: `onBlock` is told each block before it renders. */
  async renderInto(
    blocks: PageBlockInput[],
    onBlock?: (index: number) => void,
    /**
     * Each block's own HTML by its index in `blocks`: taken as it is where given
     * (kept by the caller: nothing rendered), filled in where rendered.
     */
    outputs?: (string | undefined)[],
    /** Each block between comments naming it (`markBlock`). */
    marks = false,
  ): Promise<RenderedPage> {
    return composePage(
      blocks,
      (input, index) => {
        const given = outputs?.[index];
        if (given !== undefined) return given;
        onBlock?.(index);
        const html = this.#render(input);
        if (outputs) outputs[index] = html;
        return html;
      },
      this.options.outputLimit,
      marks,
    );
  }

  async outline(html: string): Promise<string> {
    return outlineOf(html);
  }

  async renderEach(blocks: PageBlockInput[]): Promise<string[]> {
    const outputs = new Array<string | undefined>(blocks.length);
    await this.renderInto(
      blocks.map((block) => ({ ...block, parentId: null })),
      undefined,
      outputs,
    );
    return outputs as string[];
  }

  async renderAlone(block: PageBlockInput, blockId: number): Promise<RenderedPage> {
    try {
      return await this.renderPage([block]);
    } catch (error) {
      throw error instanceof RenderError ? error.alone(blockId) : error;
    }
  }

  /** Whether the template of this revision is parsed and kept: a caller may then leave it out. */
  knows(revisionId: number): boolean {
    return this.#cache.get(revisionId) !== undefined;
  }

  /** A standalone HTML document around a rendered page or block. */
  previewDocument(page: RenderedPage & { title: string }): string {
    return previewDocument(page);
  }

  /** Entries, bytes and hits of the rendered-instance cache. */
  get outputCacheStats() {
    return this.#outputs.stats;
  }

  /** One block's HTML. */
  #render(input: BlockRenderInput): string {
    const ids = { revisionId: input.revisionId, blockId: input.blockId };
    const { templates, deterministic, defaults, images } = this.#parse(input, ids.blockId);
    const key =
      deterministic && this.options.outputCacheSize > 0 ? this.#outputs.keyOf(input.revisionId, input) : undefined;
    const kept = key === undefined ? undefined : this.#outputs.get(key);
    if (kept !== undefined) return kept;
    let html: string;
    try {
      // Synchronous: no tag or filter here waits for anything (no file system, no data
      // fetching), and LiquidJS's async mode spent most of a page render on promises (bench B3).
      html = String(this.#liquid.renderSync(templates, this.#scope(input, defaults, images)));
    } catch (error) {
      throw this.#renderFailure(error, ids);
    }
    if (html.length > this.options.outputLimit) {
      throw new RenderError({
        ...ids,
        reason: 'output_limit',
        detail: `its HTML is ${html.length} characters, over the limit of ${this.options.outputLimit}.`,
      });
    }
    if (key !== undefined) this.#outputs.set(key, html);
    return html;
  }

  #parse(
    {
      revisionId,
      template,
      defaults,
      images,
    }: Pick<BlockRenderInput, 'revisionId' | 'template' | 'defaults' | 'images'>,
    blockId: number | undefined,
  ): ParsedTemplate {
    const cached = this.#cache.get(revisionId);
    if (cached) return cached;
    if (template.length > this.options.parseLimit) {
      throw new RenderError({
        revisionId,
        blockId,
        reason: 'parse_limit',
        detail: `the template is ${template.length} characters long, over the limit of ${this.options.parseLimit}.`,
      });
    }
    let templates: Template[];
    try {
      templates = this.#liquid.parse(template);
      capRanges(templates, this.options.rangeLimit);
    } catch (error) {
      const cause = rootCause(error);
      const detail =
        cause instanceof RangeError
          ? 'the template is nested too deeply.'
          : `Liquid syntax error: ${error instanceof Error ? error.message : String(error)}.`;
      throw new RenderError({ revisionId, blockId, reason: 'syntax', detail, cause: error });
    }
    const parsed = { templates, deterministic: isDeterministic(template), defaults, images };
    this.#cache.set(revisionId, parsed);
    return parsed;
  }

  #scope(
    input: BlockRenderInput,
    defaults: RenderDefaults | undefined,
    images: ImageSpots | undefined,
  ): Record<string, unknown> {
    // A copy (a template's `increment` writes into its scope), by spread and defineProperty, never
    // by assignment, so that a value named `__proto__` stays a plain key. A Map turned into an
    // object cost a twentieth of a page render.
    const scope: Record<string, unknown> = { ...valuesOf(input.values) };
    // Fields left out take their revision's defaults (richtext and Markdown ones are then made safe below).
    if (defaults !== undefined) fillDefaults(scope, defaults);
    // Each image in one shape whatever was stored: `{{ photo }}` and `{{ photo.src }}` its address, `{{ photo.alt }}` its words.
    if (images !== undefined) wrapImages(scope, images);
    for (const name of input.richtextFields) {
      const value = own(scope, name);
      if (typeof value === 'string') put(scope, name, new TrustedHtml(sanitizeRichText(value)));
    }
    for (const name of input.markdownFields ?? MARKDOWN_FIELDS) {
      const value = own(scope, name);
      if (typeof value === 'string') put(scope, name, new TrustedHtml(renderMarkdown(value)));
    }
    if (input.blockType === 'markdown' && !Object.hasOwn(scope, '_markdown')) {
      put(scope, '_markdown', new TrustedHtml(''));
    }
    // Slot data comes from data sources: never trusted, so it goes in after the trusted values.
    for (const name in input.slots) if (Object.hasOwn(input.slots, name)) put(scope, name, input.slots[name]);
    if (input.children !== undefined) put(scope, 'children', new TrustedHtml(input.children));
    return scope;
  }

  #renderFailure(error: unknown, ids: { revisionId: number; blockId: number | undefined }): RenderError {
    if (error instanceof RenderError) return error;
    const message = error instanceof Error ? error.message : String(error);
    const cause = rootCause(error);
    const causeMessage = cause instanceof Error ? cause.message : '';
    if (cause instanceof RangeLimitError) {
      return new RenderError({ ...ids, reason: 'range_limit', cause: error, detail: `${message}.` });
    }
    if (causeMessage.startsWith('template render limit exceeded')) {
      return new RenderError({
        ...ids,
        reason: 'render_limit',
        cause: error,
        detail: `rendering took longer than ${this.options.renderLimit} ms (${message}).`,
      });
    }
    if (causeMessage.startsWith('memory alloc limit exceeded')) {
      return new RenderError({
        ...ids,
        reason: 'memory_limit',
        cause: error,
        detail: `rendering built more than the limit of ${this.options.memoryLimit} characters or items (${message}).`,
      });
    }
    if (cause instanceof RangeError && causeMessage.startsWith('Invalid string length')) {
      return new RenderError({
        ...ids,
        reason: 'output_limit',
        cause: error,
        detail: `the rendered HTML is too large (${message}).`,
      });
    }
    return new RenderError({ ...ids, reason: 'error', cause: error, detail: `${message}.` });
  }
}
