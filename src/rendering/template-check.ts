/**
 * Whether a template can be rendered at all: LiquidJS parses it with the
 * render threads' own options (and their range cap), on the main thread, at a
 * block write. liquidjs is imported at the first check, not at start (bench B5).
 */
import type { TemplateChecker, TemplateProblem } from '../modules/blocks/blocks.js';
import { DEFAULT_RENDERER_OPTIONS, type RendererOptions } from './renderer-options.js';

export class LiquidTemplateChecker implements TemplateChecker {
  readonly #options: Required<RendererOptions>;
  #parse: Promise<typeof import('./template-parse.js')> | undefined;

  constructor(options: RendererOptions = {}) {
    this.#options = { ...DEFAULT_RENDERER_OPTIONS, ...options };
  }

  async check(template: string): Promise<TemplateProblem | undefined> {
    if (template.length > this.#options.parseLimit)
      return {
        line: 1,
        column: 1,
        message: `The template is ${template.length} characters long, over the limit of ${this.#options.parseLimit}.`,
      };
    const { parseProblem } = await (this.#parse ??= import('./template-parse.js'));
    return parseProblem(template, this.#options);
  }
}
