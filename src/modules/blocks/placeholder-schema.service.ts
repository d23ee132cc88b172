import type { Actor } from '../../shared/actor.js';
import { CrossRequestCache } from '../../shared/cross-request-cache.js';
import type { BlocksService } from './blocks.service.js';
import type { BlockType, Version } from './blocks.js';
import {
  bindingSlots,
  buildExample,
  compilePlaceholderSchema,
  type BindingSlot,
  type FieldDefinition,
} from './schema/index.js';

/** A data source as a binding needs it: its params and the shape of its data, in one piece. */
export interface SourceContract {
  id: string;
  title: string;
  description: string;
  params_schema: Record<string, unknown>;
  result_type: { id: string; title: string; schema_json: Record<string, unknown>; stub: unknown };
}

/** Port: the data catalog, as the placeholder schema inlines it (`expand=sources`). */
export interface SourceContracts {
  /** The contract of each existing source among `ids`, by id. */
  contracts(ids: string[]): Promise<Map<string, SourceContract>>;
}

export interface PlaceholderSchema {
  block_type: 'schema' | 'markdown';
  schema: Record<string, unknown>;
  example: Record<string, unknown>;
  binding_slots: BindingSlot[];
}

// Revisions are immutable, so a revision's compiled contract never changes; the contract is
// the revision's alone (no user in it): who may read the block is checked before it is asked for.
const MAX_CACHED = 2000;

/** The contract of a block's values: compiled once per revision, not per request. */
export class PlaceholderSchemaService {
  private readonly cache = new CrossRequestCache<number, PlaceholderSchema>({ budget: MAX_CACHED });

  constructor(
    private readonly blocks: BlocksService,
    private readonly sources?: SourceContracts,
  ) {}

  /**
   * The contract of the block's current revision, or of its revision at
   * `version`: the one an outdated instance is pinned to and validated against.
   */
  async forBlock(actor: Actor, id: number, version?: Version): Promise<PlaceholderSchema> {
    if (version) {
      const { block, revision } = await this.blocks.getAt(actor, id, version);
      return this.forRevision(revision.id, revision.schema_content, block.block_type);
    }
    const block = await this.blocks.get(actor, id);
    if (!block.revision) return this.compile([], block.block_type);
    return this.forRevision(block.revision.id, block.revision.schema_content, block.block_type);
  }

  /**
   * The contract with each slot's allowed sources inlined (params_schema, result
   * type's schema_json and stub): the whole discovery chain in one answer.
   */
  async forBlockWithSources(
    actor: Actor,
    id: number,
    version?: Version,
  ): Promise<PlaceholderSchema & { binding_slots: (BindingSlot & { sources: SourceContract[] })[] }> {
    const contract = await this.forBlock(actor, id, version);
    const ids = [...new Set(contract.binding_slots.flatMap((slot) => slot.allowed_sources))];
    const found = ids.length && this.sources ? await this.sources.contracts(ids) : new Map<string, SourceContract>();
    return {
      ...contract,
      binding_slots: contract.binding_slots.map((slot) => ({
        ...slot,
        sources: slot.allowed_sources.flatMap((source) => found.get(source) ?? []),
      })),
    };
  }

  /** `fields` may be given as a function: read only when the revision's contract is not kept. */
  forRevision(
    revisionId: number,
    fields: FieldDefinition[] | (() => FieldDefinition[]),
    blockType: BlockType,
  ): PlaceholderSchema {
    const key = blockType === 'markdown' ? -revisionId : revisionId;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const compiled = this.compile(typeof fields === 'function' ? fields() : fields, blockType);
    this.cache.set(key, compiled);
    return compiled;
  }

  private compile(fields: FieldDefinition[], blockType: BlockType): PlaceholderSchema {
    const type = blockType === 'markdown' ? 'markdown' : 'schema';
    return {
      block_type: type,
      schema: compilePlaceholderSchema(fields, type),
      example: buildExample(fields, type),
      binding_slots: bindingSlots(fields),
    };
  }
}
