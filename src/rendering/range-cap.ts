/**
 * A cap on the size of Liquid ranges. `(1..33000000)` is 14 bytes of template
 * that LiquidJS turns into an array of 33 million numbers at once, before any
 * of its time or memory checks can stop it (they run between nodes, or charge
 * what a filter has already built). LiquidJS has no option for ranges, so each
 * range of a parsed template is wrapped, once, in a value that checks its
 * bounds before the range is built. Literal and variable bounds alike.
 */
import {
  TokenKind,
  TypeGuards,
  evalToken,
  evalTokenValue,
  type Context,
  type RangeToken,
  type Template,
} from 'liquidjs';

/** Thrown inside a render; the renderer turns it into a `range_limit` RenderError. */
export class RangeLimitError extends Error {
  constructor(
    readonly text: string,
    readonly items: number,
    readonly limit: number,
  ) {
    super(`the range ${text} has ${items} items, over the limit of ${limit}`);
    this.name = 'RangeLimitError';
  }
}

/**
 * Evaluates like the range it wraps, after checking its size. It presents
 * itself as a filtered value without filters: LiquidJS evaluates those through
 * `initial.evaluate`, everywhere a value can stand (tags, outputs, filter
 * arguments). Its prototype is the range token, so `getText()` and positions
 * stay the range's own.
 */
function bounded(range: RangeToken, limit: number): object {
  const initial = {
    *evaluate(ctx: Context): Generator<unknown, unknown, unknown> {
      const low = Number(yield evalTokenValue(range.lhs, ctx));
      const high = Number(yield evalTokenValue(range.rhs, ctx));
      const items = high - low + 1;
      if (items > limit) throw new RangeLimitError(range.getText(), items, limit);
      return yield evalToken(range, ctx);
    },
  };
  return Object.assign(Object.create(range) as object, { kind: TokenKind.FilteredValue, initial, filters: [] });
}

/** Wraps every range of `templates` in place (they are parsed once and cached, so this runs once per revision). */
export function capRanges(templates: Template[], limit: number): void {
  const seen = new Set<object>();
  const walk = (node: unknown): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      // Every tag and filter holds the engine itself: nothing of the template is in there.
      if (key === 'liquid') continue;
      const value = record[key];
      if (TypeGuards.isRangeToken(value)) record[key] = bounded(value, limit);
      else walk(value);
    }
  };
  walk(templates);
}
