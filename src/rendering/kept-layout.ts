/**
 * A page laid out on the main thread from the HTML its instances rendered to,
 * kept here as each render thread keeps it: a warm page needs no thread (a
 * round trip to one cost more than the page), and looking up runs no template.
 */
import type { PageBlockInput, RenderedPage } from '../modules/publishing/publishing.js';
import { isDeterministic, type OutputCache } from './caches.js';
import { composePage } from './compose.js';
import { RenderError } from './render-error.js';
import type { BlockRenderInput } from './renderer.js';

export class KeptLayout {
  readonly #outputs: OutputCache;
  readonly #outputLimit: number;

  constructor(outputs: OutputCache, outputLimit: number) {
    this.#outputs = outputs;
    this.#outputLimit = outputLimit;
  }

  /**
   * Laid out here from the kept HTML and what the thread rendered, which is
   * kept for the next time (a parent's key holds its children's HTML: built
   * now when a child was not kept before).
   */
  laidOut(
    blocks: PageBlockInput[],
    outputs: (string | null)[],
    kept: (string | undefined)[],
    keys: (string | undefined)[],
    marks: boolean,
    each: string[] | undefined,
  ): RenderedPage {
    return composePage(
      blocks,
      (input, index) => {
        const html = kept[index] ?? outputs[index]!;
        if (each) each[index] = html;
        if (kept[index] === undefined) {
          const key = keys[index] ?? this.#keyOf(input);
          if (key !== undefined) this.#outputs.set(key, html);
        }
        return html;
      },
      this.#outputLimit,
      marks,
    );
  }

  /**
   * The page from the kept HTML of its instances, or undefined when one is not
   * kept; either way `kept` and `keys` are filled with each instance's kept HTML
   * and key, by index. A parent is looked up only when every child of it is
   * kept: its key holds their HTML. Looking up runs no template.
   */
  fromCache(
    blocks: PageBlockInput[],
    kept: (string | undefined)[],
    keys: (string | undefined)[],
    marks: boolean,
  ): RenderedPage | undefined {
    const withChildMissing = new Set<number>();
    let all = true;
    try {
      const page = composePage(
        blocks,
        (input, index) => {
          const block = blocks[index]!;
          const key = withChildMissing.has(block.id) ? undefined : this.#keyOf(input);
          const html = key === undefined ? undefined : this.#outputs.get(key);
          keys[index] = key;
          if (html !== undefined) return (kept[index] = html);
          all = false;
          if (block.parentId !== null) withChildMissing.add(block.parentId);
          // A stand-in: this layout is thrown away.
          return '';
        },
        this.#outputLimit,
        marks,
      );
      return all ? page : undefined;
    } catch (error) {
      // With stand-ins the page is shorter than it will be: where the real one overflows is the thread's to say.
      if (!all && error instanceof RenderError) return undefined;
      throw error;
    }
  }

  /** The same key as an in-process Renderer gives; none for a template whose output is never kept. */
  #keyOf(input: BlockRenderInput): string | undefined {
    return this.#outputs.budget > 0 && isDeterministic(input.template)
      ? this.#outputs.keyOf(input.revisionId, input)
      : undefined;
  }
}
