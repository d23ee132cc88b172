import { AppError } from '../shared/errors.js';

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
