/**
 * One render thread of the pool (`pool.ts`). Its Renderer keeps parsed
 * templates between tasks, so the main thread sends a template only when this
 * thread has not seen its revision yet. Rendered instances are kept on the main
 * thread alone, which sends the HTML of those it keeps: a thread keeping them
 * too (building keys, and holding and evicting a second copy in a heap of its
 * own) cost a quarter of a cold page on the thread (bench R2).
 */
import { workerData } from 'node:worker_threads';
import type { BlockType, PageBlockInput } from '../modules/publishing/publishing.js';
import type { RenderDefaults } from '../modules/blocks/schema/render-defaults.js';
import type { ImageSpots } from '../modules/blocks/schema/image-spots.js';
import { RenderError, Renderer, type RendererOptions, type RenderFailure } from './renderer.js';
import { outlineOf } from '../shared/html-outline.js';
import { migrateValues } from '../modules/blocks/migrations/migrate-values.js';
import type { MigrationLink, MigrationOutcome } from '../modules/blocks/migrations/migration-steps.js';
import { liquidDerive } from './derive.js';
import { DEFAULT_RENDERER_OPTIONS } from './renderer-options.js';

/**
 * A page block as sent: no CSS or JS (the main thread lays the page out), its
 * template only when asked, and either the HTML the main thread keeps for it
 * (nothing to render) or its values, as an object or as the stored JSON text
 * they were read from (one string is copied in one piece, where an object is
 * walked and rebuilt field by field).
 */
export interface TaskBlock {
  id: number;
  parentId: number | null;
  revisionId: number;
  /** Empty unless the task is `withTemplates`, and for a block sent with its `html`. */
  template: string;
  html?: string | undefined;
  values?: Record<string, unknown> | undefined;
  valuesJson?: string | undefined;
  slots: Record<string, unknown>;
  blockType: BlockType;
  richtextFields: string[];
  markdownFields?: string[] | undefined;
  /** With the template only (`withTemplates`): kept with it. */
  defaults?: RenderDefaults | undefined;
  images?: ImageSpots | undefined;
}

export interface RenderTask {
  blocks: TaskBlock[];
  withTemplates: boolean;
  /** Each block between comments naming it (`markBlock`): a parent's children are rendered into it so. */
  marks?: boolean;
  /** Shared with the main thread: [0] the index of the block being rendered, so an overrun can name it; [1] 1 once started. */
  progress: Int32Array;
}

export type RenderOutcome =
  /** The HTML of each block this thread rendered, by its index (null for a block sent with its HTML). */
  | { kind: 'page'; outputs: (string | null)[] }
  | { kind: 'missing' }
  | {
      kind: 'failure';
      reason: RenderFailure;
      detail: string;
      revisionId: number;
      blockId: number | undefined;
      index: number | undefined;
    };

const rendererOptions = (workerData as { renderer?: RendererOptions } | null)?.renderer;
const renderer = new Renderer({ ...rendererOptions, outputCacheSize: 0 });

const NO_VALUES: Record<string, unknown> = Object.freeze({});

/** The block as the Renderer takes it, its values parsed (none for a block whose HTML came with it). */
function pageBlock(block: TaskBlock): PageBlockInput {
  const input: PageBlockInput = {
    id: block.id,
    parentId: block.parentId,
    revisionId: block.revisionId,
    template: block.template,
    css: '',
    js: '',
    values:
      block.html !== undefined
        ? NO_VALUES
        : block.valuesJson === undefined
          ? block.values!
          : (JSON.parse(block.valuesJson) as Record<string, unknown>),
    slots: block.slots,
    blockType: block.blockType,
    richtextFields: block.richtextFields,
  };
  if (block.markdownFields !== undefined) input.markdownFields = block.markdownFields;
  if (block.defaults !== undefined) input.defaults = block.defaults;
  if (block.images !== undefined) input.images = block.images;
  return input;
}

/** A rendered document's outline (`RenderPool.outline`): parsed here, away from the event loop. */
export function outline(html: string): string {
  return outlineOf(html);
}

/** Value migrations whose chain derives values (`RenderPool.migrate`): each instance's values through the chain. */
export interface MigrateTask {
  values: Record<string, unknown>[];
  chain: MigrationLink[];
  /** Shared with the main thread: [1] 1 once started (the deadline runs from then). */
  progress: Int32Array;
}

export function migrate(task: MigrateTask): MigrationOutcome[] {
  Atomics.store(task.progress, 1, 1);
  Atomics.notify(task.progress, 1);
  // One function per task: an expression is parsed once for all the instances of the task.
  const derive = liquidDerive({ ...DEFAULT_RENDERER_OPTIONS, ...rendererOptions });
  return task.values.map((values) => migrateValues(values, task.chain, derive));
}

export default async function render(task: RenderTask): Promise<RenderOutcome> {
  Atomics.store(task.progress, 1, 1);
  Atomics.notify(task.progress, 1);
  const toRender = (block: TaskBlock) => block.html === undefined;
  if (!task.withTemplates && task.blocks.some((block) => toRender(block) && !renderer.knows(block.revisionId)))
    return { kind: 'missing' };
  try {
    const outputs: (string | undefined)[] = task.blocks.map((block) => block.html);
    await renderer.renderInto(
      task.blocks.map(pageBlock),
      (index) => Atomics.store(task.progress, 0, index),
      outputs,
      task.marks,
    );
    return { kind: 'page', outputs: outputs.map((html, index) => (toRender(task.blocks[index]!) ? html! : null)) };
  } catch (error) {
    if (!(error instanceof RenderError)) throw error;
    const { reason, detail, revisionId, blockId, index } = error;
    return { kind: 'failure', reason, detail, revisionId, blockId, index };
  }
}
