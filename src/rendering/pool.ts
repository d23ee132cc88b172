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
import type { PageBlockInput, PageRenderer, RenderedPage, RenderFor } from '../modules/publishing/publishing.js';
import { OutputCache } from './caches.js';
import { FairShare, type Release } from './fair-share.js';
import { KeptLayout } from './kept-layout.js';
// Not renderer.js: the main thread needs none of liquidjs, marked or sanitize-html (bench B5).
import { RenderError, type RenderFailure } from './render-error.js';
import { DEFAULT_RENDERER_OPTIONS, type RendererOptions } from './renderer-options.js';
import { previewDocument } from './preview-document.js';
import type { RenderOutcome, RenderTask, TaskBlock } from './render-worker.js';
import { StoredJson } from '../shared/stored-json.js';
import { SizeBound } from './size-bound.js';
import type { MigrationLink, MigrationOutcome } from '../modules/blocks/migrations/migration-steps.js';

export interface RenderPoolOptions {
  /** Wall-clock budget of one page, in milliseconds. */
  pageBudgetMs?: number;
  /** Old-generation heap of each render thread, in MB. */
  heapMb?: number;
  /** Render threads at most. */
  threads?: number;
  /** Previews of one user that may wait for a thread at once; past that a preview is a 429 (`FairShare`). */
  waitingPerUser?: number;
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
  waitingPerUser: 4,
  renderer: {},
};

/** Past this, a place held for a thread's replacement is given back anyway (a thread that cannot start). */
const REPLACEMENT_WAIT_MS = 10_000;

/** The bundled worker next to the bundle; from source, a loader shim that registers TypeScript first. */
function workerFile(): string {
  const fromSource = import.meta.url.endsWith('.ts');
  return fileURLToPath(new URL(fromSource ? './render-worker.dev.mjs' : './render-worker.js', import.meta.url));
}

/** A block as a thread is sent it: with the HTML kept for it, or else its values (their stored text when they have one). */
function taskBlock(block: PageBlockInput, html: string | undefined, withTemplate: boolean): TaskBlock {
  const sent: TaskBlock = {
    id: block.id,
    parentId: block.parentId,
    revisionId: block.revisionId,
    template: withTemplate && html === undefined ? block.template : '',
    slots: block.slots,
    blockType: block.blockType,
    richtextFields: block.richtextFields,
    markdownFields: block.markdownFields,
  };
  if (html !== undefined) sent.html = html;
  else {
    // With the template only: a thread keeps a revision's defaults with its parsed template.
    if (withTemplate && block.defaults !== undefined) sent.defaults = block.defaults;
    if (withTemplate && block.images !== undefined) sent.images = block.images;
    if (block.values instanceof StoredJson) sent.valuesJson = block.values.text;
    else sent.values = block.values;
  }
  return sent;
}

export class RenderPool implements PageRenderer {
  readonly options: Readonly<Required<Omit<RenderPoolOptions, 'onRender'>>>;
  /** Made at the first render that needs a thread: a service (or a test) that renders nothing starts none. */
  #pool: Piscina<RenderTask, RenderOutcome> | undefined;
  /** Whose page goes to a thread next: every page waits here, never in piscina's queue. */
  readonly #share: FairShare;
  /** Places of pages that ended their thread, given back as replacements become ready (oldest first). */
  #awaitingThread: (() => void)[] = [];
  readonly #onRender: RenderPoolOptions['onRender'];
  /** Rendered HTML of instances, as each thread keeps it, but here: a warm page needs no thread. */
  readonly #kept: KeptLayout;
  readonly #outputLimit: number;
  readonly #sizeBound = new SizeBound();

  constructor(options: RenderPoolOptions = {}) {
    const { onRender, ...limits } = options;
    this.options = { ...DEFAULT_POOL_OPTIONS, ...limits };
    this.#onRender = onRender;
    const renderer = { ...DEFAULT_RENDERER_OPTIONS, ...this.options.renderer };
    this.#outputLimit = renderer.outputLimit;
    this.#kept = new KeptLayout(new OutputCache(renderer.outputCacheSize), renderer.outputLimit);
    this.#share = new FairShare({ slots: this.options.threads, waitingPerUser: this.options.waitingPerUser });
  }

  #threads(): Piscina<RenderTask, RenderOutcome> {
    if (this.#pool) return this.#pool;
    this.#pool = new Piscina({
      filename: workerFile(),
      // Every thread from the first render on, and a terminated one replaced at once: a page
      // given a free thread never waits for one to start while another user's page overran.
      minThreads: this.options.threads,
      maxThreads: this.options.threads,
      // Threads keep their parsed templates: never retire an idle one.
      idleTimeout: Number.POSITIVE_INFINITY,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb },
      workerData: { renderer: this.options.renderer },
    });
    // A thread is ready (its worker file loaded): the place of the page that ended the thread it replaces is free.
    this.#pool.on('workerCreate', () => this.#awaitingThread.shift()?.());
    return this.#pool;
  }

  /**
   * Gives a place back once a new thread has replaced the one its page ended
   * (at most `REPLACEMENT_WAIT_MS` later): meanwhile the page's user still
   * holds it, so their next page cannot take the other users' free thread
   * while the replacement starts.
   */
  #releaseWhenReplaced(release: Release): void {
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      this.#awaitingThread = this.#awaitingThread.filter((waiting) => waiting !== once);
      release();
    };
    const timer = setTimeout(once, REPLACEMENT_WAIT_MS);
    timer.unref();
    this.#awaitingThread.push(once);
  }

  renderPage(blocks: PageBlockInput[], renderFor?: RenderFor): Promise<RenderedPage> {
    return this.#render(blocks, renderFor);
  }

  /**
   * Each block's own HTML, rendered as the blocks of one page (one task, one
   * budget, the kept HTML used and filled), none inside another.
   */
  async renderEach(blocks: PageBlockInput[], renderFor?: RenderFor): Promise<string[]> {
    const each = new Array<string>(blocks.length);
    await this.#render(
      blocks.map((block) => ({ ...block, parentId: null })),
      renderFor,
      each,
    );
    return each;
  }

  async #render(blocks: PageBlockInput[], renderFor?: RenderFor, each?: string[]): Promise<RenderedPage> {
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
      const kept = new Array<string | undefined>(blocks.length);
      const keys = new Array<string | undefined>(blocks.length);
      const marks = renderFor?.marks === true;
      const warm = this.#kept.fromCache(blocks, kept, keys, marks);
      const keptCount = kept.reduce((n, html) => (html === undefined ? n : n + 1), 0);
      if (warm) {
        if (each) for (const [i, html] of kept.entries()) each[i] = html!;
        report('ok', blocks.length);
        return warm;
      }
      const outputs = await this.#onThread(blocks, kept, marks, renderFor, () => (templates = 'sent'));
      const page = this.#kept.laidOut(blocks, outputs, kept, keys, marks, each);
      report('ok', keptCount);
      return page;
    } catch (error) {
      report(error instanceof RenderError ? error.reason : 'error');
      throw error;
    }
  }

  /**
   * The page's task on a thread. Templates are the bulk of a task: sent only
   * to a thread that reports it has not parsed them (every character sent is
   * copied twice); CSS and JS never, the page is laid out here. The page's
   * place on a thread is held through both attempts, so a page sent again with
   * its templates never queues again behind others. Each attempt has its own
   * progress, shared with the thread ([0] the block it renders, [1] set once
   * it has started), and so its own deadline: the budget is the render's, not
   * a wait's.
   */
  async #onThread(
    blocks: PageBlockInput[],
    kept: (string | undefined)[],
    marks: boolean,
    renderFor: RenderFor | undefined,
    onSendingTemplates: () => void,
  ): Promise<(string | null)[]> {
    const send = (withTemplates: boolean): RenderTask => ({
      blocks: blocks.map((block, index) => taskBlock(block, kept[index], withTemplates)),
      withTemplates,
      ...(marks ? { marks } : {}),
      progress: new Int32Array(new SharedArrayBuffer(8)),
    });
    const release = await this.#share.acquire(renderFor);
    let outcome: RenderOutcome;
    try {
      outcome = await this.#run(send(false), blocks);
      if (outcome.kind === 'missing') {
        onSendingTemplates();
        outcome = await this.#run(send(true), blocks);
      }
    } catch (error) {
      // #run throws a RenderError only when it ended the thread (over its time or heap).
      if (error instanceof RenderError) this.#releaseWhenReplaced(release);
      else release();
      throw error;
    }
    release();
    if (outcome.kind === 'page') return outcome.outputs;
    if (outcome.kind === 'missing') throw new Error('A render thread reported missing templates it was sent.');
    const { kind: _kind, ...failure } = outcome;
    throw new RenderError(failure);
  }

  async renderAlone(block: PageBlockInput, blockId: number, renderFor?: RenderFor): Promise<RenderedPage> {
    try {
      return await this.renderPage([block], renderFor);
    } catch (error) {
      throw error instanceof RenderError ? error.alone(blockId) : error;
    }
  }

  /** Parsed on a thread, in the user's turn like a page: a document of megabytes held the event loop. */
  async outline(html: string, renderFor?: RenderFor): Promise<string> {
    const release = await this.#share.acquire(renderFor);
    try {
      // The worker's named export `outline`: a string in, a string out (the pool is typed for pages).
      const task = html as unknown as RenderTask;
      return (await this.#threads().run(task, { name: 'outline' })) as unknown as string;
    } finally {
      release();
    }
  }

  previewDocument(page: RenderedPage & { title: string }): string {
    return previewDocument(page);
  }

  /**
   * Value migrations that derive values, on a thread in the user's turn, under
   * a page's wall-clock budget and heap (each derive under the renderer's own
   * limits): `stopped` when the thread was ended, and nothing is kept of it.
   */
  async migrate(
    values: Record<string, unknown>[],
    chain: MigrationLink[],
    renderFor?: RenderFor,
  ): Promise<MigrationOutcome[] | { stopped: string }> {
    const release = await this.#share.acquire(renderFor);
    const progress = new Int32Array(new SharedArrayBuffer(8));
    const deadline = this.#deadline(progress);
    try {
      // The worker's named export `migrate` (the pool is typed for pages).
      const task = { values, chain, progress } as unknown as RenderTask;
      return (await this.#threads().run(task, { name: 'migrate', signal: deadline })) as unknown as MigrationOutcome[];
    } catch (error) {
      if (deadline.aborted) return { stopped: `it ran longer than ${this.options.pageBudgetMs} ms and was stopped.` };
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY')
        return { stopped: `it needed more than ${this.options.heapMb} MB and was stopped.` };
      throw error;
    } finally {
      release();
    }
  }

  surelyFits(blocks: PageBlockInput[]): boolean {
    return this.#sizeBound.fits(blocks, this.#outputLimit);
  }

  /**
   * Aborts once the task has rendered for its budget. The clock starts when a
   * thread takes the task, not when it is queued: waiting for a free or freshly
   * started thread is not the template's time. One deadline per task: a page
   * sent again with its templates starts a clock of its own.
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
    return this.#pool?.threads.map((thread) => thread.threadId) ?? [];
  }

  /** Renders running on threads and waiting for one now. */
  get load(): { running: number; waiting: number } {
    return this.#share.load;
  }

  /** Stops every thread; renders in flight are rejected. */
  async close(): Promise<void> {
    await this.#pool?.destroy();
  }

  async #run(task: RenderTask, blocks: PageBlockInput[]): Promise<RenderOutcome> {
    const deadline = this.#deadline(task.progress);
    try {
      return await this.#threads().run(task, { signal: deadline });
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
