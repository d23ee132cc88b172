/**
 * The PageRenderer on worker threads. A template is untrusted code: a range
 * of 33 million items sorted, or 20 slow blocks, held the one event loop for
 * tens of seconds. Here a page renders on a worker thread (`piscina`), under a
 * wall-clock budget for the whole page and a heap limit; past either the thread
 * is terminated (piscina replaces it) and the page gets a 422 naming the block
 * that was rendering, while the main thread answers everyone else meanwhile.
 */
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { PageBlockInput, PageRenderer, RenderedPage } from '../modules/publishing/publishing.js';
import { isDeterministic, OutputCache } from './caches.js';
import { composePage } from './compose.js';
// Not renderer.js: the main thread needs none of liquidjs, marked or sanitize-html (bench B5).
import { RenderError, type RenderFailure } from './render-error.js';
import { DEFAULT_RENDERER_OPTIONS, type RendererOptions } from './renderer-options.js';
import { previewDocument } from './preview-document.js';
import type { BlockRenderInput } from './renderer.js';
import type { RenderOutcome, RenderTask, TaskBlock } from './render-worker.js';
import { jsonTextOf } from '../shared/json-text.js';

export interface RenderPoolOptions {
  /** Wall-clock budget of one page, in milliseconds. */
  pageBudgetMs?: number;
  /** Old-generation heap of each render thread, in MB. */
  heapMb?: number;
  /** Render threads at most. */
  threads?: number;
  /** The per-block limits of each thread's Renderer (its defaults otherwise). */
  renderer?: RendererOptions;
  /** Told about every page rendered or refused (metrics). */
  onRender?: ((event: RenderEvent) => void) | undefined;
}

export interface RenderEvent {
  seconds: number;
  /** `ok`, or why the page was refused. */
  outcome: 'ok' | RenderFailure;
  /** Instances taken from the thread's cache of rendered HTML, and rendered. */
  instances: { kept: number; rendered: number };
  /** Whether the thread had parsed every template already, or had to be sent them. */
  templates: 'kept' | 'sent';
}

export const DEFAULT_POOL_OPTIONS: Required<Omit<RenderPoolOptions, 'onRender'>> = {
  pageBudgetMs: 2000,
  heapMb: 256,
  threads: 2,
  renderer: {},
};

/** The bundled worker next to the bundle; from source, a loader shim that registers TypeScript first. */
function workerFile(): string {
  const fromSource = import.meta.url.endsWith('.ts');
  return fileURLToPath(new URL(fromSource ? './render-worker.dev.mjs' : './render-worker.js', import.meta.url));
}

/** A block as a thread is sent it: no template, CSS or JS, and its values as their stored text when they have one. */
function taskBlock(block: PageBlockInput): TaskBlock {
  const { values, ...rest } = block;
  const valuesJson = jsonTextOf(values);
  return valuesJson === undefined
    ? { ...rest, values, template: '', css: '', js: '' }
    : { ...rest, valuesJson, template: '', css: '', js: '' };
}

/** Thrown inside a cache-only layout when an instance's HTML is not kept (made once: no stack to capture per miss). */
const NOT_KEPT = new Error('not kept');

export class RenderPool implements PageRenderer {
  readonly options: Readonly<Required<Omit<RenderPoolOptions, 'onRender'>>>;
  readonly #pool: Piscina<RenderTask, RenderOutcome>;
  readonly #onRender: RenderPoolOptions['onRender'];
  /** Rendered HTML of instances, as each thread keeps it, but here: a warm page needs no thread. */
  readonly #outputs: OutputCache;
  readonly #outputLimit: number;

  constructor(options: RenderPoolOptions = {}) {
    const { onRender, ...limits } = options;
    this.options = { ...DEFAULT_POOL_OPTIONS, ...limits };
    this.#onRender = onRender;
    const renderer = { ...DEFAULT_RENDERER_OPTIONS, ...this.options.renderer };
    this.#outputs = new OutputCache(renderer.outputCacheSize);
    this.#outputLimit = renderer.outputLimit;
    this.#pool = new Piscina({
      filename: workerFile(),
      // Threads start at the first render: a service (or a test) that renders nothing starts none.
      minThreads: 0,
      maxThreads: this.options.threads,
      // Threads keep their caches: never retire an idle one.
      idleTimeout: Number.POSITIVE_INFINITY,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb },
      workerData: { renderer: this.options.renderer },
    });
  }

  async renderPage(blocks: PageBlockInput[]): Promise<RenderedPage> {
    if (blocks.length === 0) return { html: '', css: '', js: '' };
    const started = performance.now();
    let templates: RenderEvent['templates'] = 'kept';
    const report = (outcome: RenderEvent['outcome'], kept = 0) =>
      this.#onRender?.({
        seconds: (performance.now() - started) / 1000,
        outcome,
        instances: { kept, rendered: outcome === 'ok' ? blocks.length - kept : 0 },
        templates,
      });
    try {
      // Warm: every instance's HTML is kept here, and the page is laid out without a thread
      // (a round trip to one cost more than the page). Looking up runs no template.
      const warm = await this.#fromCache(blocks);
      if (warm) {
        report('ok', blocks.length);
        return warm;
      }
      // Shared with the thread: [0] the block it renders, [1] set once it has started on the page.
      const progress = new Int32Array(new SharedArrayBuffer(8));
      const deadline = this.#deadline(progress);
      // Templates are the bulk of a task: sent only to a thread that reports it has not parsed them.
      // CSS and JS never: the page is laid out here. Every character sent is copied twice. Values
      // read from the database go as their stored text: one string is copied in one piece, where an
      // object is walked and rebuilt field by field, and the thread keys its cache by the text anyway.
      const bare = blocks.map(taskBlock);
      let outcome = await this.#run({ blocks: bare, withTemplates: false, progress }, deadline, blocks);
      if (outcome.kind === 'missing') {
        templates = 'sent';
        const withTemplates = blocks.map((block, index) => ({ ...bare[index]!, template: block.template }));
        outcome = await this.#run({ blocks: withTemplates, withTemplates: true, progress }, deadline, blocks);
      }
      if (outcome.kind === 'page') {
        const { outputs, keys } = outcome;
        // Laid out here from the thread's HTML of each block, kept for the next time under the
        // thread's keys (the same as #keyOf gives; building them again cost a tenth of the page).
        const page = composePage(blocks, (_input, index) => outputs[index]!, this.#outputLimit);
        outputs.forEach((html, index) => {
          const key = keys[index];
          if (key !== undefined) this.#outputs.set(key, html);
        });
        report('ok', outcome.kept);
        return page;
      }
      if (outcome.kind === 'missing') throw new Error('A render thread reported missing templates it was sent.');
      const { kind: _kind, ...failure } = outcome;
      throw new RenderError(failure);
    } catch (error) {
      report(error instanceof RenderError ? error.reason : 'error');
      throw error;
    }
  }

  /** The page from the kept HTML of its instances, or undefined when one is not kept. */
  async #fromCache(blocks: PageBlockInput[]): Promise<RenderedPage | undefined> {
    try {
      return composePage(
        blocks,
        (input) => {
          const key = this.#keyOf(input);
          const html = key === undefined ? undefined : this.#outputs.get(key);
          if (html === undefined) throw NOT_KEPT;
          return html;
        },
        this.#outputLimit,
      );
    } catch (error) {
      if (error === NOT_KEPT) return undefined;
      throw error;
    }
  }

  /** The same key as a thread's Renderer gives; none for a template whose output is never kept. */
  #keyOf(input: BlockRenderInput): string | undefined {
    return this.#outputs.budget > 0 && isDeterministic(input.template)
      ? this.#outputs.keyOf(input.revisionId, input)
      : undefined;
  }

  async renderAlone(block: PageBlockInput, blockId: number): Promise<RenderedPage> {
    try {
      return await this.renderPage([block]);
    } catch (error) {
      throw error instanceof RenderError ? error.alone(blockId) : error;
    }
  }

  previewDocument(page: RenderedPage & { title: string }): string {
    return previewDocument(page);
  }

  /**
   * Aborts once the page has rendered for its budget. The clock starts when a
   * thread takes the page, not when it is queued: waiting for a free or freshly
   * started thread is not the template's time.
   */
  #deadline(progress: Int32Array): AbortSignal {
    const controller = new AbortController();
    const started = Atomics.waitAsync(progress, 1, 0);
    void Promise.resolve(started.value).then(() => {
      const timer = setTimeout(() => controller.abort(), this.options.pageBudgetMs);
      timer.unref();
      controller.signal.addEventListener('abort', () => clearTimeout(timer));
    });
    return controller.signal;
  }

  /** Ids of the render threads alive now (a terminated one is replaced by a new id). */
  get threadIds(): number[] {
    return this.#pool.threads.map((thread) => thread.threadId);
  }

  /** Stops every thread; renders in flight are rejected. */
  close(): Promise<void> {
    return this.#pool.destroy();
  }

  async #run(task: RenderTask, deadline: AbortSignal, blocks: PageBlockInput[]): Promise<RenderOutcome> {
    try {
      return await this.#pool.run(task, { signal: deadline });
    } catch (error) {
      const index = Atomics.load(task.progress, 0);
      const block = blocks[index]!;
      const ids = { revisionId: block.revisionId, blockId: block.id, index, cause: error };
      if (deadline.aborted) {
        throw new RenderError({
          ...ids,
          reason: 'render_limit',
          detail: `the page took longer than ${this.options.pageBudgetMs} ms to render, and was stopped in this block.`,
        });
      }
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new RenderError({
          ...ids,
          reason: 'memory_limit',
          detail: `rendering needed more than ${this.options.heapMb} MB, and was stopped in this block.`,
        });
      }
      throw error;
    }
  }
}
