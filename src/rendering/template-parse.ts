/**
 * LiquidJS's parse with the render threads' options and range cap, for
 * `LiquidTemplateChecker`: a module of its own, imported at the first check,
 * so that liquidjs loads on the main thread only when a block is written.
 */
import { Liquid, LiquidError } from 'liquidjs';
import { capRanges } from './range-cap.js';
import type { TemplateProblem } from '../modules/blocks/blocks.js';

export function parseProblem(
  template: string,
  options: { parseLimit: number; rangeLimit: number },
): TemplateProblem | undefined {
  const liquid = new Liquid({ parseLimit: options.parseLimit, templates: {}, ownPropertyOnly: true });
  try {
    capRanges(liquid.parse(template), options.rangeLimit);
    return undefined;
  } catch (error) {
    let cause: unknown = error;
    while (LiquidError.is(cause) && cause.originalError) cause = cause.originalError;
    if (cause instanceof RangeError) return { line: 1, column: 1, message: 'The template is nested too deeply.' };
    if (!(error instanceof Error)) throw error;
    const token = (error as { token?: { getPosition?: () => [number, number] } }).token;
    const [line, column] = token?.getPosition?.() ?? [1, 1];
    // liquidjs ends its message with ", line:1, col:5": said once, in our words.
    const said = error.message.replace(/, line:\d+, col:\d+$/, '');
    return { line, column, message: `Liquid syntax error at line ${line}, column ${column}: ${said}.` };
  }
}
