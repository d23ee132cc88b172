import type { Actor } from '../../shared/actor.js';
import { validationError, type FieldError } from '../../shared/errors.js';
import type { BlocksService } from '../blocks/blocks.service.js';
import type { LoadedBlock, PinnableBlock, PinnedRevision, Revision, SourceCatalog } from '../blocks/blocks.js';
import type { PlaceholderSchemaService } from '../blocks/placeholder-schema.service.js';
import type { FieldDefinition } from '../blocks/schema/index.js';
import { sanitizeRichTextValues, ValidatorCache, type Sanitize } from '../blocks/schema/index.js';
import { nearMiss } from '../../shared/near-miss.js';
import { blocksNotFound, missingBlock, type Binding, type NewInstance, type PageBlock } from './pages.js';
import { isObject } from '../../shared/is-object.js';
import { StoredJson } from '../../shared/stored-json.js';

export interface InstanceInput {
  block_id: number;
  placeholder_values?: Record<string, unknown>;
  bindings?: Record<string, unknown>;
  parent_page_block_id?: number;
}

export interface BuildOptions {
  /** Path of element i in the request body, e.g. `blocks[2]`; '' for a body that is one instance. */
  pathOf: (index: number) => string;
  /** Instances already on the page, by id: the only possible parents. */
  existing: Map<number, PageBlock>;
}

/** An instance's values and bindings, checked against the revision it stands on (`revision_id`, `schema_snapshot`). */
export interface PinnedCheck {
  instance: Pick<PageBlock, 'revision_id' | 'schema_snapshot'>;
  blockType: LoadedBlock['block_type'];
  values: Record<string, unknown>;
  bindings: Record<string, unknown> | undefined;
  at: string;
}

const join = (prefix: string, key: string) => (prefix ? `${prefix}.${key}` : key);

/** A revision to pin to: as a page write reads it (its fields as stored), or with its fields parsed (upgrades). */
type PinTarget =
  Pick<PinnedRevision, 'id' | 'version' | 'schema'> | Pick<Revision, 'id' | 'version' | 'schema_content'>;

/** The revision's field definitions, parsed from their stored text only now if they came as such. */
const fieldsOf = (revision: Pick<PinnedRevision, 'schema'> | Pick<Revision, 'schema_content'>): FieldDefinition[] =>
  'schema' in revision ? revision.schema.value : revision.schema_content;

/**
 * The values as they are stored: rich text sanitized by publication's policy.
 * A value with none of `<`, `>` or `&` in it is unchanged by the sanitizer,
 * so the revision's fields are only read (parsed) for values that may hold HTML.
 */
function storedValues<R>(
  sanitize: Sanitize,
  fields: (revision: R) => FieldDefinition[],
  revision: R,
  values: Record<string, unknown>,
): Record<string, unknown> {
  return storedValuesText(sanitize, fields, revision, values).values;
}

/** `storedValues` with their JSON text, serialised once (the text read for HTML is the one stored). */
function storedValuesText<R>(
  sanitize: Sanitize,
  fields: (revision: R) => FieldDefinition[],
  revision: R,
  values: Record<string, unknown>,
): { values: Record<string, unknown>; text: string } {
  const text = JSON.stringify(values);
  if (!MAY_HOLD_HTML.test(text)) return { values, text };
  const sanitized = sanitizeRichTextValues(fields(revision), values, sanitize);
  return { values: sanitized, text: JSON.stringify(sanitized) };
}
const MAY_HOLD_HTML = /[<>&]/;

/**
 * A source's `params_schema` as binding params are checked against it: every
 * key outside `properties` refused (an invented param is an error, not
 * ignored), whatever the administrator wrote about other keys.
 */
function closedParams(schema: Record<string, unknown>): Record<string, unknown> {
  const { patternProperties: _patterns, additionalProperties: _others, ...rest } = schema;
  return { ...rest, additionalProperties: false };
}

/**
 * Turns the `blocks[]` of a request into validated instances pinned to each
 * block's current revision. Every problem of every element is reported at its
 * full path; nothing is written unless all of them are right.
 */
export class InstanceBuilder {
  private readonly validator = new ValidatorCache();

  constructor(
    private readonly deps: {
      blocks: BlocksService;
      schemas: PlaceholderSchemaService;
      sources: SourceCatalog;
      /** Publication's sanitizer of rich text: values are stored as the page will show them. */
      sanitize: Sanitize;
    },
  ) {}

  async build(actor: Actor, inputs: InstanceInput[], options: BuildOptions): Promise<NewInstance[]> {
    const blocks = await this.resolve(actor, inputs, options);
    const sourceIds = inputs.flatMap((i) =>
      isObject(i.bindings) ? Object.values(i.bindings).map((b) => (isObject(b) ? b.source : undefined)) : [],
    );
    const paramsSchemas = await this.deps.sources.paramsSchemas([
      ...new Set(sourceIds.filter((s): s is string => typeof s === 'string')),
    ]);
    const errors: FieldError[] = [];
    const instances = inputs.map((input, i) => {
      const block = blocks[i]!;
      const revision = block.revision!;
      const at = options.pathOf(i);
      errors.push(...this.checkValues(block, revision, input.placeholder_values ?? {}, join(at, 'placeholder_values')));
      errors.push(...this.checkBindings(block, revision, input.bindings, at, paramsSchemas));
      errors.push(...this.checkParent(input.parent_page_block_id, at, options.existing));
      return this.pin(block, revision, input);
    });
    if (errors.length) throw validationError('Block validation failed: see errors[].', errors);
    return instances;
  }

  /**
   * Values and bindings of instances that stay on their pinned revisions
   * (`PUT /pages/{id}/blocks/{pbId}`, a page preview with unsaved values), each
   * reported under its own `at` (`''` for a body that is one instance).
   */
  async checkPinned(items: PinnedCheck[]): Promise<FieldError[]> {
    return (await this.checkPinnedEach(items)).flat();
  }

  /** `checkPinned`, each item's errors apart (an upgrade plan: an instance as it would stand on the target revision). */
  async checkPinnedEach(items: PinnedCheck[]): Promise<FieldError[][]> {
    const sourceIds = items.flatMap(({ bindings }) =>
      isObject(bindings) ? Object.values(bindings).map((b) => (isObject(b) ? b.source : undefined)) : [],
    );
    const paramsSchemas = await this.deps.sources.paramsSchemas([
      ...new Set(sourceIds.filter((s): s is string => typeof s === 'string')),
    ]);
    return items.map(({ instance, blockType, values, bindings, at }) => {
      const fields = instance.schema_snapshot.value as FieldDefinition[];
      const contract = this.deps.schemas.forRevision(instance.revision_id, fields, blockType);
      return [
        ...this.validator.validate(
          `${instance.revision_id}:${contract.block_type}`,
          contract.schema,
          values,
          join(at, 'placeholder_values'),
        ),
        ...this.bindingErrors(contract.binding_slots, bindings, at, paramsSchemas),
      ];
    });
  }

  /** The current-revision contract check used by `build`, exposed for re-pinning (upgrades). */
  checkValues(
    block: Pick<LoadedBlock, 'block_type'>,
    revision: Pick<PinnedRevision, 'id' | 'schema'> | Pick<Revision, 'id' | 'schema_content'>,
    values: unknown,
    path: string,
  ): FieldError[] {
    const contract = this.deps.schemas.forRevision(revision.id, () => fieldsOf(revision), block.block_type);
    if (!isObject(values))
      return [{ path, message: 'placeholder_values must be an object.', code: 'type', expected: 'object' }];
    return this.validator.validate(`${revision.id}:${contract.block_type}`, contract.schema, values, path);
  }

  /** The values of an instance that stays on its pinned revision, as they are stored (rich text sanitized). */
  pinnedValues(instance: Pick<PageBlock, 'schema_snapshot'>, values: Record<string, unknown>) {
    return storedValues(this.deps.sanitize, (i) => i.schema_snapshot.value as FieldDefinition[], instance, values);
  }

  pin(
    block: Pick<LoadedBlock, 'id'> & Partial<Pick<LoadedBlock, 'block_type'>>,
    revision: PinTarget,
    input: Omit<InstanceInput, 'block_id'>,
  ): NewInstance {
    // With the stored text, the fields are parsed only if read.
    const stored = 'schema' in revision;
    const values = storedValuesText(this.deps.sanitize, fieldsOf, revision, input.placeholder_values ?? {});
    return {
      block_id: block.id,
      revision_id: revision.id,
      version: revision.version,
      schema_snapshot: stored ? revision.schema : StoredJson.of(revision.schema_content),
      placeholder_values: values.values,
      values_text: values.text,
      ...(block.block_type !== undefined && { block_type: block.block_type }),
      bindings:
        isObject(input.bindings) && Object.keys(input.bindings).length
          ? (input.bindings as Record<string, Binding>)
          : null,
      parent_page_block_id: input.parent_page_block_id ?? null,
    };
  }

  private async resolve(actor: Actor, inputs: InstanceInput[], options: BuildOptions): Promise<PinnableBlock[]> {
    const missing: FieldError[] = [];
    const found: PinnableBlock[] = [];
    // All of them at once, in one narrow query: one lookup per distinct block, then the
    // blocks with tags, favorites and templates, were most of a page write (bench B2).
    const readable = await this.deps.blocks.pinnable(
      actor,
      inputs.map((input) => input.block_id),
    );
    for (const [i, input] of inputs.entries()) {
      const block = readable.get(input.block_id);
      const at = options.pathOf(i) || 'block_id';
      if (!block) missing.push(missingBlock(options.pathOf(i), input.block_id));
      else if (!block.revision)
        missing.push({
          path: join(options.pathOf(i), 'block_id'),
          message: `${at}: block ${input.block_id} has no template or schema yet`,
          code: 'not_found',
        });
      else found.push(block);
    }
    if (missing.length) throw blocksNotFound(missing);
    return found;
  }

  private checkBindings(
    block: PinnableBlock,
    revision: PinnedRevision,
    bindings: unknown,
    at: string,
    paramsSchemas: Map<string, Record<string, unknown>>,
  ): FieldError[] {
    const contract = this.deps.schemas.forRevision(revision.id, () => revision.schema.value, block.block_type);
    return this.bindingErrors(contract.binding_slots, bindings, at, paramsSchemas);
  }

  private bindingErrors(
    slots: { name: string; allowed_sources: string[] }[],
    bindings: unknown,
    at: string,
    paramsSchemas: Map<string, Record<string, unknown>>,
  ): FieldError[] {
    if (bindings === undefined || bindings === null) return [];
    const path = join(at, 'bindings');
    if (!isObject(bindings))
      return [{ path, message: 'bindings must be an object keyed by slot name.', code: 'type', expected: 'object' }];
    if (Object.keys(bindings).length && slots.length === 0)
      return [{ path, message: 'This block is static: it has no binding slots.', code: 'not_allowed', expected: [] }];
    const errors: FieldError[] = [];
    for (const [name, binding] of Object.entries(bindings)) {
      const slotPath = `${path}.${name}`;
      const slot = slots.find((s) => s.name === name);
      if (!slot) {
        const names = slots.map((s) => s.name);
        const near = nearMiss(name, names);
        errors.push({
          path: slotPath,
          message: `No slot "${name}": the slots are ${names.join(', ')}.`,
          code: 'unknown_key',
          expected: names,
          ...(near && { hint: `did you mean \`${near}\`?` }),
        });
        continue;
      }
      if (!isObject(binding)) {
        errors.push({
          path: slotPath,
          message: 'A binding is an object {source, params}.',
          code: 'type',
          expected: 'object',
        });
        continue;
      }
      if (typeof binding.source !== 'string' || !slot.allowed_sources.includes(binding.source)) {
        const near = typeof binding.source === 'string' ? nearMiss(binding.source, slot.allowed_sources) : undefined;
        errors.push({
          path: `${slotPath}.source`,
          message: `The source must be one of: ${slot.allowed_sources.join(', ')}.`,
          code: binding.source === undefined ? 'required' : 'not_allowed',
          expected: slot.allowed_sources,
          hint: near
            ? `did you mean \`${near}\`?`
            : `read a source's params with GET /data-sources/{id}; allowed here: ${slot.allowed_sources.join(', ')}`,
        });
        continue;
      }
      const params = binding.params ?? {};
      const schema = paramsSchemas.get(binding.source);
      if (!isObject(params))
        errors.push({
          path: `${slotPath}.params`,
          message: 'params must be an object.',
          code: 'type',
          expected: 'object',
        });
      else if (schema)
        errors.push(
          ...this.validator.validate(
            `source:${binding.source}:${JSON.stringify(schema)}`,
            closedParams(schema),
            params,
            `${slotPath}.params`,
          ),
        );
    }
    return errors;
  }

  /** A parent must be a layout instance already on the page (or, in a preview, in its blocks). */
  checkParent(
    parentId: number | undefined,
    at: string,
    existing: ReadonlyMap<number, { block: { kind: string } }>,
  ): FieldError[] {
    if (parentId === undefined) return [];
    const path = join(at, 'parent_page_block_id');
    const parent = existing.get(parentId);
    if (!parent)
      return [
        {
          path,
          message: `Instance ${parentId} is not on this page: a parent must be an existing instance of the same page.`,
          code: 'not_found',
        },
      ];
    if (parent.block.kind !== 'layout')
      return [
        {
          path,
          message: `Instance ${parentId} is not a layout block: only layout blocks hold children.`,
          code: 'not_allowed',
        },
      ];
    return [];
  }
}

/** Whether instance `id` is `ancestor` or sits, at any depth, inside it. */
export function nestedIn(
  instances: ReadonlyMap<number, { parent_page_block_id: number | null }>,
  id: number,
  ancestor: number,
): boolean {
  const seen = new Set<number>();
  for (let at: number | null = id; at !== null && !seen.has(at); at = instances.get(at)?.parent_page_block_id ?? null) {
    if (at === ancestor) return true;
    seen.add(at);
  }
  return false;
}
