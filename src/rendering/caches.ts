import type { Template } from 'liquidjs';
import { StoredJson } from '../shared/stored-json.js';
import type { RenderValues } from '../modules/publishing/publishing.js';
import type { RenderDefaults } from '../modules/blocks/schema/render-defaults.js';
import type { ImageSpots } from '../modules/blocks/schema/image-spots.js';
import { CrossRequestCache } from '../shared/cross-request-cache.js';

export interface ParsedTemplate {
  templates: Template[];
  /**
   * Whether the same values always give the same HTML. A template that uses a
   * date filter may show the time ("now", or a string built to say it), so its
   * output is never kept.
   */
  deterministic: boolean;
  /** The revision's defaults for fields an instance leaves out (they come with its template). */
  defaults?: RenderDefaults | undefined;
  /** Where its image fields are (they come with its template too). */
  images?: ImageSpots | undefined;
}

/** Parsed templates by revision id: revisions never change, so neither do their templates. */
export type TemplateCache = CrossRequestCache<number, ParsedTemplate>;

export const templateCache = (capacity: number): TemplateCache => new CrossRequestCache({ budget: capacity });

export const isDeterministic = (template: string) => !/date/i.test(template);

/** What decides an instance's HTML besides its revision's template. */
export interface OutputInputs {
  values: RenderValues;
  slots: Record<string, unknown>;
  children?: string | undefined;
  blockType: string | null;
  richtextFields: string[];
  markdownFields?: string[] | undefined;
}

/**
 * Rendered HTML of instances, by their revision and everything else that
 * decides it; bounded by bytes, keys included (two a character: what V8 holds
 * for a string that is not Latin-1, an upper bound). A page preview
 * re-rendered as an editor types changes one instance: the others come from here.
 * The key is the inputs' JSON itself: hashing it cost more than it saved.
 * No user is in the key: the same inputs give the same HTML whoever asks.
 */
export class OutputCache {
  readonly #kept: CrossRequestCache<string, string>;
  hits = 0;
  constructor(
    /** Bytes. */
    readonly budget: number,
  ) {
    this.#kept = new CrossRequestCache({ budget, weigh: (html, key) => 2 * (key.length + html.length) });
  }

  keyOf(revisionId: number, inputs: OutputInputs): string {
    const { values, slots, children, blockType, richtextFields, markdownFields } = inputs;
    // Values read from the database come with their stored text: serializing them again was a
    // sixth of a warm preview. Its length first, so that where it ends is never in doubt.
    const text = values instanceof StoredJson ? values.text : JSON.stringify(values);
    return `${revisionId}:${text.length}:${text}${JSON.stringify([slots, children ?? null, blockType, richtextFields, markdownFields ?? null])}`;
  }

  get(key: string): string | undefined {
    const html = this.#kept.get(key);
    if (html !== undefined) this.hits++;
    return html;
  }

  set = (key: string, html: string) => this.#kept.set(key, html);

  get stats() {
    return { entries: this.#kept.size, bytes: this.#kept.weight, hits: this.hits };
  }
}
