import type { Template } from 'liquidjs';
import { StoredJson } from '../shared/stored-json.js';
import type { RenderValues } from '../modules/publishing/publishing.js';

/**
 * Least recently used first, bounded by a total weight (an entry count, or
 * characters). A Map keeps insertion order, so re-inserting on read is enough.
 */
class Lru<K, V> {
  readonly #entries = new Map<K, { value: V; weight: number }>();
  /**
   * The entries oldest first, kept between evictions: every entry it has
   * passed was evicted, so the next one is the oldest. A fresh `keys()` each
   * time walked every slot evicted before (a Map leaves them empty until it
   * rehashes): 1–2 ms of a 200-instance cold page.
   */
  #oldest = this.#entries.keys();
  #weight = 0;
  constructor(
    private readonly budget: number,
    private readonly weigh: (value: V) => number,
  ) {}

  get(key: K): V | undefined {
    const found = this.#entries.get(key);
    if (!found) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, found);
    return found.value;
  }

  set(key: K, value: V): void {
    const weight = this.weigh(value);
    if (weight > this.budget) return;
    this.delete(key);
    this.#entries.set(key, { value, weight });
    this.#weight += weight;
    while (this.#weight > this.budget) {
      let oldest = this.#oldest.next();
      // Only an empty Map ends it (the entry just set is never evicted), and then it sees nothing added later.
      if (oldest.done) oldest = (this.#oldest = this.#entries.keys()).next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  get weight(): number {
    return this.#weight;
  }

  private delete(key: K): void {
    const found = this.#entries.get(key);
    if (!found) return;
    this.#entries.delete(key);
    this.#weight -= found.weight;
  }
}

export interface ParsedTemplate {
  templates: Template[];
  /**
   * Whether the same values always give the same HTML. A template that uses a
   * date filter may show the time ("now", or a string built to say it), so its
   * output is never kept.
   */
  deterministic: boolean;
}

/** Parsed templates by revision id: revisions never change, so neither do their templates. */
export class TemplateCache {
  readonly #lru: Lru<number, ParsedTemplate>;
  constructor(capacity: number) {
    this.#lru = new Lru(capacity, () => 1);
  }
  get = (revisionId: number) => this.#lru.get(revisionId);
  set = (revisionId: number, parsed: ParsedTemplate) => this.#lru.set(revisionId, parsed);
}

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
 * decides it; bounded by total characters, keys included. A page preview
 * re-rendered as an editor types changes one instance: the others come from here.
 * The key is the inputs' JSON itself: hashing it cost more than it saved.
 */
export class OutputCache {
  readonly #lru: Lru<string, { key: string; html: string }>;
  hits = 0;
  constructor(readonly budget: number) {
    const characters = budget;
    this.#lru = new Lru(characters, (entry) => entry.key.length + entry.html.length);
  }

  keyOf(revisionId: number, inputs: OutputInputs): string {
    const { values, slots, children, blockType, richtextFields, markdownFields } = inputs;
    // Values read from the database come with their stored text: serializing them again was a
    // sixth of a warm preview. Its length first, so that where it ends is never in doubt.
    const text = values instanceof StoredJson ? values.text : JSON.stringify(values);
    return `${revisionId}:${text.length}:${text}${JSON.stringify([slots, children ?? null, blockType, richtextFields, markdownFields ?? null])}`;
  }

  get(key: string): string | undefined {
    const html = this.#lru.get(key)?.html;
    if (html !== undefined) this.hits++;
    return html;
  }

  set = (key: string, html: string) => this.#lru.set(key, { key, html });

  get stats() {
    return { entries: this.#lru.size, characters: this.#lru.weight, hits: this.hits };
  }
}
