/**
 * The `derive` steps of value migrations, run by LiquidJS on a render thread
 * with the renderer's limits: its parse limit, render time and allocations per
 * run, ranges capped, no file system, no prototype. A derive makes a value, not
 * HTML: nothing is escaped.
 */
import { Liquid, LiquidError, type Template } from 'liquidjs';
import type { DeriveFn } from '../modules/blocks/migrations/migration-steps.js';
import { capRanges, RangeLimitError } from './range-cap.js';
import type { RendererOptions } from './renderer-options.js';

function rootCause(error: unknown): unknown {
  let current = error;
  while (LiquidError.is(current) && current.originalError) current = current.originalError;
  return current;
}

/** A DeriveFn over one LiquidJS of these limits; each expression parsed once per function. */
export function liquidDerive(options: Required<RendererOptions>): DeriveFn {
  const liquid = new Liquid({
    parseLimit: options.parseLimit,
    renderLimit: options.renderLimit,
    memoryLimit: options.memoryLimit,
    templates: {},
    ownPropertyOnly: true,
  });
  const parsed = new Map<string, Template[]>();
  return (expression, scope) => {
    try {
      let templates = parsed.get(expression);
      if (!templates) {
        templates = liquid.parse(expression);
        capRanges(templates, options.rangeLimit);
        parsed.set(expression, templates);
      }
      return { ok: true, text: String(liquid.renderSync(templates, scope)) };
    } catch (error) {
      const cause = rootCause(error);
      const said = cause instanceof Error ? cause.message : String(cause);
      if (cause instanceof RangeLimitError) return { ok: false, limit: true, message: `${said}.` };
      if (said.startsWith('template render limit exceeded'))
        return { ok: false, limit: true, message: `it ran longer than ${options.renderLimit} ms.` };
      if (said.startsWith('memory alloc limit exceeded'))
        return { ok: false, limit: true, message: `it built more than ${options.memoryLimit} characters or items.` };
      if (cause instanceof RangeError) return { ok: false, limit: true, message: 'it made too large a value.' };
      return { ok: false, limit: false, message: error instanceof Error ? error.message : String(error) };
    }
  };
}
