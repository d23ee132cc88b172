/**
 * One render thread of the pool (`pool.ts`). Its Renderer keeps parsed
 * templates and rendered instances between tasks, so the main thread sends a
 * template only when this thread has not seen its revision yet.
 */
import { workerData } from 'node:worker_threads';
import type { PageBlockInput } from '../modules/publishing/publishing.js';
import { RenderError, Renderer, type RendererOptions, type RenderFailure } from './renderer.js';
import { parseKeepingText } from '../shared/json-text.js';

/** A page block as sent: its values as an object, or as the stored JSON text they were read from. */
export type TaskBlock = Omit<PageBlockInput, 'values'> &
  ({ values: PageBlockInput['values']; valuesJson?: undefined } | { values?: undefined; valuesJson: string });

export interface RenderTask {
  /** With `template` left empty unless `withTemplates`. */
  blocks: TaskBlock[];
  withTemplates: boolean;
  /** Shared with the main thread: [0] the index of the block being rendered, so an overrun can name it; [1] 1 once started. */
  progress: Int32Array;
}

export type RenderOutcome =
  /**
   * Each block's own HTML and output-cache key by its index (the main thread lays
   * the page out and keeps the HTML under those keys, without building them again);
   * `kept`: how many came from this thread's cache of rendered HTML.
   */
  | { kind: 'page'; outputs: string[]; keys: (string | undefined)[]; kept: number }
  | { kind: 'missing' }
  | {
      kind: 'failure';
      reason: RenderFailure;
      detail: string;
      revisionId: number;
      blockId: number | undefined;
      index: number | undefined;
    };

const renderer = new Renderer((workerData as { renderer?: RendererOptions } | null)?.renderer);

export default async function render(task: RenderTask): Promise<RenderOutcome> {
  Atomics.store(task.progress, 1, 1);
  Atomics.notify(task.progress, 1);
  if (!task.withTemplates && task.blocks.some((block) => !renderer.knows(block.revisionId))) return { kind: 'missing' };
  try {
    const hitsBefore = renderer.outputCacheStats.hits;
    const outputs = { html: [] as string[], keys: [] as (string | undefined)[] };
    // Parsed keeping the text: the Renderer keys its cache by it, as the main thread does.
    const blocks = task.blocks.map(({ valuesJson, values, ...block }) => ({
      ...block,
      values: valuesJson === undefined ? values : parseKeepingText<PageBlockInput['values']>(valuesJson),
    }));
    await renderer.renderPage(blocks, (index) => Atomics.store(task.progress, 0, index), outputs);
    return {
      kind: 'page',
      outputs: outputs.html,
      keys: outputs.keys,
      kept: renderer.outputCacheStats.hits - hitsBefore,
    };
  } catch (error) {
    if (!(error instanceof RenderError)) throw error;
    const { reason, detail, revisionId, blockId, index } = error;
    return { kind: 'failure', reason, detail, revisionId, blockId, index };
  }
}
