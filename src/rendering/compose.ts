import type { PageBlockInput, RenderedPage } from '../modules/publishing/publishing.js';
import { RenderError } from './render-error.js';
import { SCOPE_ATTRIBUTE, ScopedCss, wrapInstance } from './scope-css.js';

/** One block alone: a page block without its place in the page and its assets. */
export interface BlockRenderInput extends Omit<PageBlockInput, 'id' | 'parentId' | 'css' | 'js'> {
  /** The page block (instance) being rendered, named in errors when known. */
  blockId?: number;
  /** Already rendered (and therefore already safe) HTML of a layout block's children. */
  children?: string;
}

/** The HTML of one block, given its inputs (children's HTML included) and its index in the page. */
export type RenderOne = (input: BlockRenderInput, index: number) => string;

/**
 * A block's HTML between two comments naming its instance, for an editor that
 * finds each block on its preview (`?marks=1`). Comments change neither the
 * layout nor what CSS selects. Never in a publication.
 */
export const markBlock = (id: number, html: string) => `<!--pb-block:${id}-->${html}<!--/pb-block:${id}-->`;

/** Each revision's scoped CSS, made once (on the main thread, and in each render thread). */
const scoped = new ScopedCss();

/**
 * A revision's JS in a block of its own: its `let`, `const` and `class` stay
 * its own (two revisions of one block each declaring `const button` were a
 * syntax error that stopped the page's whole script), and `pbInstances` holds
 * its instances' wrappers. Function declarations still reach the page (a
 * script's blocks hoist them), as they did.
 */
const scopeJs = (revisionId: number, js: string) =>
  `{\nconst pbInstances = document.querySelectorAll('[${SCOPE_ATTRIBUTE}="${revisionId}"]');\n${js}\n}`;

/**
 * Lays a page's blocks out in the given order, each child (by `parentId`, in
 * order) inside its parent's `children`, each instance in the element naming
 * its revision (`wrapInstance`), with CSS and JS once per revision in the
 * order the blocks appear in the HTML, the CSS scoped to that revision's
 * instances (`scopeCss`) and the JS in a block of its own (`scopeJs`). Where each block's HTML comes from
 * is the caller's: the Renderer renders it, the pool takes it from its cache or
 * from a thread. The same layout everywhere, so the same inputs give the same keys.
 * Synchronous, and each block's input built field by field: a 200-block page spent
 * a tenth of its render on awaits and object spreads here.
 */
export function composePage(
  blocks: PageBlockInput[],
  renderOne: RenderOne,
  outputLimit: number,
  /** Each block's HTML between `markBlock`'s comments, children too (so within their parent's `children`). */
  marks = false,
): RenderedPage {
  const indexOf = new Map(blocks.map((block, i) => [block.id, i]));
  const known = new Set(blocks.map((block) => block.id));
  const childrenOf = new Map<number, PageBlockInput[]>();
  const roots: PageBlockInput[] = [];
  for (const block of blocks) {
    const parentId = block.parentId;
    // A parent missing from the page (or the block itself) must not hide the block.
    if (parentId === null || parentId === block.id || !known.has(parentId)) roots.push(block);
    else {
      const siblings = childrenOf.get(parentId);
      if (siblings) siblings.push(block);
      else childrenOf.set(parentId, [block]);
    }
  }

  const visited = new Set<number>();
  const assets = new Map<number, { css: string; js: string }>();
  const visit = (block: PageBlockInput): string => {
    visited.add(block.id);
    if (!assets.has(block.revisionId)) assets.set(block.revisionId, { css: block.css, js: block.js });
    const children = childrenOf.get(block.id);
    let childHtml: string[] | undefined;
    if (children) {
      childHtml = [];
      for (const child of children) if (!visited.has(child.id)) childHtml.push(visit(child));
    }
    const index = indexOf.get(block.id)!;
    const input: BlockRenderInput = {
      blockId: block.id,
      revisionId: block.revisionId,
      template: block.template,
      values: block.values,
      slots: block.slots,
      blockType: block.blockType,
      richtextFields: block.richtextFields,
    };
    if (block.markdownFields !== undefined) input.markdownFields = block.markdownFields;
    if (block.defaults !== undefined) input.defaults = block.defaults;
    if (block.images !== undefined) input.images = block.images;
    if (childHtml !== undefined && childHtml.length > 0) input.children = childHtml.join('\n');
    try {
      const html = renderOne(input, index);
      // The marks inside the element: an editor's range between them then holds the block's own boxes (the
      // element itself, `display: contents`, has none).
      return wrapInstance(block.revisionId, marks ? markBlock(block.id, html) : html);
    } catch (error) {
      throw error instanceof RenderError && error.index === undefined ? error.at(index) : error;
    }
  };

  const parts: string[] = [];
  let length = 0;
  const add = (block: PageBlockInput) => {
    const html = visit(block);
    length += html.length;
    if (length > outputLimit) {
      throw new RenderError({
        revisionId: block.revisionId,
        blockId: block.id,
        index: indexOf.get(block.id),
        reason: 'output_limit',
        detail: `the page's HTML reaches ${length} characters with this block, over the limit of ${outputLimit}.`,
      });
    }
    parts.push(html);
  };
  for (const block of roots) add(block);
  // Blocks caught in a parent cycle are reachable from no root; show them rather than drop them.
  for (const block of blocks) if (!visited.has(block.id)) add(block);

  const css: string[] = [];
  const js: string[] = [];
  for (const [revisionId, chunk] of assets) {
    if (chunk.css.trim() !== '') css.push(scoped.of(revisionId, chunk.css));
    if (chunk.js.trim() !== '') js.push(scopeJs(revisionId, chunk.js));
  }
  return { html: parts.join('\n'), css: css.join('\n'), js: js.join('\n') };
}
