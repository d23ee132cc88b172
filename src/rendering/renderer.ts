/**
 * Liquid templates → HTML, for previews and publication. Templates are
 * untrusted (any user writes them), so every render runs under liquidjs's
 * parse, time and memory limits, cannot reach the file system, and every
 * failure comes back as a RenderError naming the block and revision.
 */
import { Drop, Liquid, LiquidError, filters as liquidFilters, type Context, type Template } from 'liquidjs';
import type { BlockType, PageBlockInput, PageRenderer, RenderedPage } from '../modules/publishing/publishing.js';
import { AppError } from '../shared/errors.js';
import { composePage } from './compose.js';
import { isDeterministic, OutputCache, TemplateCache, type ParsedTemplate } from './caches.js';
import { renderMarkdown } from './markdown.js';
import { capRanges, RangeLimitError } from './range-cap.js';
import { sanitizeRichText } from './sanitize.js';

export interface RendererOptions {
  /** Longest template accepted, in characters. */
  parseLimit?: number;
  /** Longest render of one block, in milliseconds. */
  renderLimit?: number;
  /** liquidjs allocation budget per block render, in its units (characters of strings built, items of arrays and ranges). */
  memoryLimit?: number;
  /** Most items of one range, `(a..b)`, checked before it is built. */
  rangeLimit?: number;
  /** Longest HTML accepted from one block, and for a whole page, in characters. */
  outputLimit?: number;
  /** How many parsed templates (one per revision) are kept. */
  cacheSize?: number;
  /** How many characters of rendered instance HTML are kept (0: none). */
  outputCacheSize?: number;
}

export const DEFAULT_RENDERER_OPTIONS: Required<RendererOptions> = {
  parseLimit: 256 * 1024,
  renderLimit: 1000,
  memoryLimit: 64 * 1024 * 1024,
  rangeLimit: 100_000,
  outputLimit: 16 * 1024 * 1024,
  cacheSize: 500,
  outputCacheSize: 4 * 1024 * 1024,
};

export type { BlockType, PageBlockInput, RenderedPage };

/** One block alone: a page block without its place in the page and its assets. */
export interface BlockRenderInput extends Omit<PageBlockInput, 'id' | 'parentId' | 'css' | 'js'> {
  /** The page block (instance) being rendered, named in errors when known. */
  blockId?: number;
  /** Already rendered (and therefore already safe) HTML of a layout block's children. */
  children?: string;
}

export type RenderFailure =
  'syntax' | 'parse_limit' | 'render_limit' | 'memory_limit' | 'range_limit' | 'output_limit' | 'error';

/** A template that cannot be rendered. A 422 to HTTP callers: the template is the user's. */
export class RenderError extends AppError {
  readonly reason: RenderFailure;
  readonly revisionId: number;
  readonly blockId: number | undefined;
  readonly detail: string;
  /** The block's place in the page's order, named as `blocks[i]` in `errors[]`. */
  readonly index: number | undefined;

  constructor(options: {
    reason: RenderFailure;
    detail: string;
    revisionId: number;
    /** The page block (instance); with `alone`, the block itself. */
    blockId?: number | undefined;
    index?: number | undefined;
    /** Rendered outside a page (a block preview): the place is the block's `template`. */
    alone?: boolean;
    cause?: unknown;
  }) {
    const who = options.alone
      ? `The template of block ${options.blockId} (revision ${options.revisionId})`
      : options.blockId === undefined
        ? `Block revision ${options.revisionId}`
        : `Block ${options.blockId} (revision ${options.revisionId})`;
    const message = `${who} cannot be rendered: ${options.detail}`;
    const path = options.alone ? 'template' : options.index !== undefined ? `blocks[${options.index}]` : undefined;
    super('unprocessable', message, {
      details: { revision_id: options.revisionId, ...(options.blockId !== undefined && { block_id: options.blockId }) },
      ...(path !== undefined && { errors: [{ path, message, code: 'invalid' }] }),
    });
    this.name = 'RenderError';
    this.reason = options.reason;
    this.revisionId = options.revisionId;
    this.blockId = options.blockId;
    this.detail = options.detail;
    this.index = options.index;
    if (options.cause !== undefined) this.cause = options.cause;
  }

  /** The same failure, placed at the block's index in the page. */
  at(index: number): RenderError {
    const { reason, detail, revisionId, blockId, cause } = this;
    return new RenderError({ reason, detail, revisionId, blockId, index, cause });
  }

  /** The same failure of a block rendered alone: at its `template`, named by the block's own id. */
  alone(blockId: number): RenderError {
    const { reason, detail, revisionId, cause } = this;
    return new RenderError({ reason, detail, revisionId, blockId, alone: true, cause });
  }
}

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
    this.#cache = new TemplateCache(this.options.cacheSize);
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
    return this.#render(input).html;
  }

  /**
   * Renders a page's blocks in the given order, each child (by `parentId`, in
   * order) into its parent's `children`. CSS and JS come once per revision, in
   * the order the blocks appear in the HTML.
   */
  async renderPage(
    blocks: PageBlockInput[],
    onBlock?: (index: number) => void,
    /** Filled with each block's own HTML and its output-cache key (none: never kept), by its index in `blocks`. */
    outputs?: { html: string[]; keys: (string | undefined)[] },
  ): Promise<RenderedPage> {
    return composePage(
      blocks,
      (input, index) => {
        onBlock?.(index);
        const { html, key } = this.#render(input);
        if (outputs) {
          outputs.html[index] = html;
          outputs.keys[index] = key;
        }
        return html;
      },
      this.options.outputLimit,
    );
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

  /** Entries, characters and hits of the rendered-instance cache. */
  get outputCacheStats() {
    return this.#outputs.stats;
  }

  /** One block's HTML, and the key it is kept under (none when its output is never kept). */
  #render(input: BlockRenderInput): { html: string; key: string | undefined } {
    const ids = { revisionId: input.revisionId, blockId: input.blockId };
    const { templates, deterministic } = this.#parse(input.revisionId, input.template, ids.blockId);
    const key =
      deterministic && this.options.outputCacheSize > 0 ? this.#outputs.keyOf(input.revisionId, input) : undefined;
    const kept = key === undefined ? undefined : this.#outputs.get(key);
    if (kept !== undefined) return { html: kept, key };
    let html: string;
    try {
      // Synchronous: no tag or filter here waits for anything (no file system, no data
      // fetching), and LiquidJS's async mode spent most of a page render on promises (bench B3).
      html = String(this.#liquid.renderSync(templates, this.#scope(input)));
    } catch (error) {
      throw this.#renderFailure(error, ids);
    }
    if (html.length > this.options.outputLimit) {
      throw new RenderError({
        ...ids,
        reason: 'output_limit',
        detail: `the rendered HTML is over ${this.options.outputLimit} characters.`,
      });
    }
    if (key !== undefined) this.#outputs.set(key, html);
    return { html, key };
  }

  #parse(revisionId: number, template: string, blockId: number | undefined): ParsedTemplate {
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
    const parsed = { templates, deterministic: isDeterministic(template) };
    this.#cache.set(revisionId, parsed);
    return parsed;
  }

  #scope(input: BlockRenderInput): Record<string, unknown> {
    // Built from entries, never by assignment, so a value named `__proto__` stays a plain key.
    const scope = new Map<string, unknown>(Object.entries(input.values));
    for (const name of input.richtextFields) {
      const value = scope.get(name);
      if (typeof value === 'string') scope.set(name, new TrustedHtml(sanitizeRichText(value)));
    }
    for (const name of input.markdownFields ?? ['_markdown']) {
      const value = scope.get(name);
      if (typeof value === 'string') scope.set(name, new TrustedHtml(renderMarkdown(value)));
    }
    if (input.blockType === 'markdown' && !scope.has('_markdown')) scope.set('_markdown', new TrustedHtml(''));
    // Slot data comes from data sources: never trusted, so it goes in after the trusted values.
    for (const [name, data] of Object.entries(input.slots)) scope.set(name, data);
    if (input.children !== undefined) scope.set('children', new TrustedHtml(input.children));
    return Object.fromEntries(scope);
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

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);

export function previewDocument(page: RenderedPage & { title: string }): string {
  // Block CSS and JS are the authors' own code, but a `</style>` or `</script>` inside them must not end the element early.
  const css = page.css.replace(/<\/style/gi, '<\\/style');
  const js = page.js.replace(/<\/script/gi, '<\\/script').replace(/<!--/g, '<\\!--');
  return [
    '<!doctype html>',
    '<html>',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(page.title)}</title>`,
    ...(css.trim() !== '' ? [`<style>\n${css}\n</style>`] : []),
    '</head>',
    '<body>',
    page.html,
    ...(js.trim() !== '' ? [`<script>\n${js}\n</script>`] : []),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
