import type { Actor } from '../../shared/actor.js';
import { unprocessable } from '../../shared/errors.js';
import type { StoredJson } from '../../shared/stored-json.js';
import { checkPageJson, type SizedInstance } from './page-size.js';
import type { BlockType } from '../blocks/blocks.js';
import type { NewInstance, PageBlock, PageFields } from './pages.js';

/** One instance of a page as it will stand after a write: what its JSON and its HTML are made of. */
export interface ProposedInstance extends SizedInstance {
  /** Its id; a new one's stand-in is negative (its children name it so). */
  id: number;
  revision_id: number;
  /** The field definitions of the pinned revision, as stored. */
  schema_snapshot: StoredJson<unknown[]>;
  /** Its block's type, when the write read it (a kept instance's, or a new one's): rendering need not read it again. */
  block_type?: BlockType | undefined;
}

/**
 * Port: the page's HTML as it would render (rendering is publishing's): the
 * index of the instance at which it goes over its bound, with the message
 * saying by how much, or undefined when it fits (or cannot be rendered for
 * another reason, which its preview reports).
 */
export interface RenderedSize {
  overflow(actor: Actor, instances: ProposedInstance[]): Promise<{ index: number; message: string } | undefined>;
  /** `overflow` of several pages at once, in their order. */
  overflowEach(
    actor: Actor,
    pages: ProposedInstance[][],
  ): Promise<Array<{ index: number; message: string } | undefined>>;
}

type CheckedFields = Pick<
  PageFields,
  'name' | 'slug' | 'meta_title' | 'meta_description' | 'meta_keywords' | 'meta_robots'
>;

/** An instance on the page, left as it is by the write. */
export const kept = (instance: PageBlock): ProposedInstance => ({
  id: instance.id,
  block_id: instance.block.id,
  revision_id: instance.revision_id,
  schema_snapshot: instance.schema_snapshot,
  block_type: instance.block.block_type,
  placeholder_values: instance.placeholder_values,
  bindings: instance.bindings,
  parent_page_block_id: instance.parent_page_block_id,
});

/**
 * A page's bounds, checked before every write that could grow it: its JSON
 * (`checkPageJson`) and its rendered HTML (rendered with its stub data on the
 * shared pool, in the writer's turn), each a 422 at the place that takes it over.
 */
export class PageBounds {
  constructor(private readonly deps: { jsonLimit: number; rendered: RenderedSize | undefined }) {}

  get jsonLimit(): number {
    return this.deps.jsonLimit;
  }

  /**
   * `instances` in the page's order after the write, each the request wrote
   * with its `at`. `bodyPath`: where to point when the place is the body
   * itself (`at` ''), e.g. `placeholder_values`.
   */
  async check(
    actor: Actor,
    fields: CheckedFields,
    instances: ProposedInstance[],
    options: { json?: boolean; bodyPath?: string } = {},
  ): Promise<void> {
    if (options.json !== false) checkPageJson(fields, instances, this.deps.jsonLimit);
    const over = await this.deps.rendered?.overflow(actor, instances);
    if (!over) return;
    const path = this.#placeOf(instances, over.index, options.bodyPath);
    throw unprocessable(over.message, [{ path, message: over.message, code: 'too_large' }]);
  }

  /**
   * `check` of several pages written together (an upgrade set): the first
   * page refused (its place in `pages`) and its error, or undefined when all
   * fit. Their HTML is rendered as `check` renders it, the revisions read once.
   */
  async firstRefused(
    actor: Actor,
    pages: Array<{ fields: CheckedFields; instances: ProposedInstance[] }>,
  ): Promise<{ index: number; error: unknown } | undefined> {
    let json: { index: number; error: unknown } | undefined;
    for (const [index, page] of pages.entries()) {
      try {
        checkPageJson(page.fields, page.instances, this.deps.jsonLimit);
      } catch (error) {
        json = { index, error };
        break;
      }
    }
    // Only the pages before one refused already can be refused before it.
    const before = pages.slice(0, json?.index ?? pages.length).map((p) => p.instances);
    const over = (await this.deps.rendered?.overflowEach(actor, before)) ?? [];
    const index = over.findIndex((o) => o !== undefined);
    if (index < 0) return json;
    const { message, index: at } = over[index]!;
    const path = this.#placeOf(pages[index]!.instances, at);
    return { index, error: unprocessable(message, [{ path, message, code: 'too_large' }]) };
  }

  /** The instance's place in the request; for one it did not send, the first it did (what made the page grow). */
  #placeOf(instances: ProposedInstance[], index: number, bodyPath = 'root'): string {
    const at = instances[index]?.at ?? instances.find((i) => i.at !== undefined)?.at;
    if (at === undefined) return `blocks[${index}]`;
    return at === '' ? bodyPath : at;
  }
}

/** An instance the write makes (or re-pins), at `at` in the request, under the id `id` (a stand-in when new). */
export const written = (instance: NewInstance, id: number, at: string): ProposedInstance => ({
  id,
  block_id: instance.block_id,
  revision_id: instance.revision_id,
  schema_snapshot: instance.schema_snapshot,
  placeholder_values: instance.placeholder_values,
  values_text: instance.values_text,
  block_type: instance.block_type,
  bindings: instance.bindings,
  parent_page_block_id: instance.parent_page_block_id,
  at,
});
