import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import { forbidden, notFound, unprocessable, type FieldError } from '../../shared/errors.js';
import { pageOf, type Page, type PageRequest } from '../../shared/pagination.js';
import type {
  DataCatalogRepository,
  DataResultType,
  DataSource,
  JsonSchema,
  ResultTypeInput,
  ResultTypePatch,
  SourceInput,
  SourcePatch,
} from './catalog.js';
import type { SourceContract } from '../blocks/placeholder-schema.service.js';
import { paramsSchemaErrors, schemaErrors, valueErrors } from './schema-check.js';

const adminOnly = (actor: Actor) => {
  if (!actor.isAdmin) throw forbidden('Administrators only.');
};

const refuse = (message: string, errors: FieldError[]) => {
  if (errors.length > 0) throw unprocessable(message, errors);
};

/**
 * The data catalog: result types (the shape of live data and its preview
 * stub) and data sources (where a binding takes data, with its params).
 * Everyone reads it; administrators change it.
 */
export class DataSourcesService {
  constructor(private readonly deps: { catalog: DataCatalogRepository; clock: Clock }) {}

  /** Sources with their result types inlined, for the placeholder schema's `expand=sources`. */
  async contracts(ids: string[]) {
    const out = new Map<string, SourceContract>();
    for (const id of ids) {
      const source = await this.deps.catalog.findSource(id);
      const type = source && (await this.deps.catalog.findResultType(source.result_type_id));
      if (!source || !type) continue;
      out.set(id, {
        id: source.id,
        title: source.title,
        description: source.description,
        params_schema: source.params_schema,
        result_type: {
          id: type.id,
          title: type.title,
          schema_json: type.schema_json,
          stub: type.stub,
        },
      });
    }
    return out;
  }

  // ---- result types

  async listResultTypes(page: PageRequest): Promise<Page<DataResultType>> {
    const { rows, total } = await this.deps.catalog.listResultTypes(page);
    return pageOf(rows, total, page);
  }

  /** A result type, or 404. */
  async getResultType(id: string): Promise<DataResultType> {
    const found = await this.deps.catalog.findResultType(id);
    if (!found) throw notFound(`Data result type ${id} not found.`);
    return found;
  }

  async createResultType(actor: Actor, input: ResultTypeInput): Promise<DataResultType> {
    adminOnly(actor);
    checkResultType(input.schema_json, input.stub, 'sent');
    const now = this.now();
    return this.deps.catalog.createResultType({ ...input, created_at: now, updated_at: now });
  }

  /** A new `schema_json` must still accept the stub, the stored one when none is sent. */
  async updateResultType(actor: Actor, id: string, patch: ResultTypePatch): Promise<DataResultType> {
    adminOnly(actor);
    const current = await this.getResultType(id);
    const stubSent = patch.stub !== undefined;
    if (patch.schema_json !== undefined || stubSent) {
      checkResultType(
        patch.schema_json ?? current.schema_json,
        stubSent ? patch.stub : current.stub,
        stubSent ? 'sent' : 'stored',
      );
    }
    const updated = await this.deps.catalog.updateResultType(id, { ...patch, updated_at: this.now() });
    if (!updated) throw notFound(`Data result type ${id} not found.`);
    return updated;
  }

  /** 409 while a data source returns this type (the foreign key decides). */
  async deleteResultType(actor: Actor, id: string): Promise<void> {
    adminOnly(actor);
    if (!(await this.deps.catalog.deleteResultType(id))) throw notFound(`Data result type ${id} not found.`);
  }

  // ---- sources

  async listSources(page: PageRequest): Promise<Page<DataSource>> {
    const { rows, total } = await this.deps.catalog.listSources(page);
    return pageOf(rows, total, page);
  }

  /** A data source, or 404. */
  async getSource(id: string): Promise<DataSource> {
    const found = await this.findSource(id);
    if (!found) throw notFound(`Data source ${id} not found.`);
    return found;
  }

  /** A data source, or `undefined`: for modules that decide themselves what a missing one means. */
  async findSource(id: string): Promise<DataSource | undefined> {
    return this.deps.catalog.findSource(id);
  }

  /** 422 at `result_type_id` when that type does not exist (the foreign key decides), 409 at `id` when taken. */
  async createSource(actor: Actor, input: SourceInput): Promise<DataSource> {
    adminOnly(actor);
    checkParamsSchema(input.params_schema);
    const now = this.now();
    return this.deps.catalog.createSource({
      ...input,
      description: input.description ?? '',
      created_at: now,
      updated_at: now,
    });
  }

  async updateSource(actor: Actor, id: string, patch: SourcePatch): Promise<DataSource> {
    adminOnly(actor);
    if (patch.params_schema !== undefined) checkParamsSchema(patch.params_schema);
    const updated = await this.deps.catalog.updateSource(id, { ...patch, updated_at: this.now() });
    if (!updated) throw notFound(`Data source ${id} not found.`);
    return updated;
  }

  /** 409 while a block revision's binding slot names the source (the foreign key decides). */
  async deleteSource(actor: Actor, id: string): Promise<void> {
    adminOnly(actor);
    if (!(await this.deps.catalog.deleteSource(id))) throw notFound(`Data source ${id} not found.`);
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}

function checkResultType(schema: JsonSchema, stub: unknown, stubOrigin: 'sent' | 'stored') {
  refuse('schema_json is not a valid JSON Schema (draft-07): see errors[].', schemaErrors(schema, 'schema_json'));
  refuse(
    stubOrigin === 'sent'
      ? 'The stub does not match schema_json: see errors[].'
      : 'The stored stub does not match the new schema_json: send a matching stub with it.',
    valueErrors(schema, stub, 'stub'),
  );
}

function checkParamsSchema(schema: JsonSchema) {
  const errors = schemaErrors(schema, 'params_schema');
  refuse('params_schema is not a valid JSON Schema (draft-07): see errors[].', errors);
  refuse(
    'params_schema must describe an object of known params: see errors[].',
    paramsSchemaErrors(schema, 'params_schema'),
  );
}
