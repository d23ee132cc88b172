import type { Selectable } from 'kysely';
import { conflict, unprocessable } from '../../shared/errors.js';
import type {
  DataCatalogRepository,
  DataResultType,
  DataSource,
  JsonSchema,
  ResultTypePatch,
  SourcePatch,
} from '../../modules/catalog/catalog.js';
import type { Database } from '../dialects/dialect.js';
import type { DataResultTypesTable, DataSourcesTable } from '../schema.js';
import { countOf, fromJson, toJson } from './rows.js';

const toResultType = (row: Selectable<DataResultTypesTable>): DataResultType => ({
  id: row.id,
  title: row.title,
  schema_json: fromJson<JsonSchema>(row.schema_json),
  stub: fromJson<unknown>(row.stub),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const toSource = (row: Selectable<DataSourcesTable>): DataSource => ({
  id: row.id,
  title: row.title,
  description: row.description,
  result_type_id: row.result_type_id,
  params_schema: fromJson<JsonSchema>(row.params_schema),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const resultTypeColumns = (patch: ResultTypePatch & { updated_at: string }) => ({
  ...(patch.title !== undefined && { title: patch.title }),
  ...(patch.schema_json !== undefined && { schema_json: toJson(patch.schema_json) }),
  ...(patch.stub !== undefined && { stub: toJson(patch.stub) }),
  updated_at: patch.updated_at,
});

const sourceColumns = (patch: SourcePatch & { updated_at: string }) => ({
  ...(patch.title !== undefined && { title: patch.title }),
  ...(patch.description !== undefined && { description: patch.description }),
  ...(patch.result_type_id !== undefined && { result_type_id: patch.result_type_id }),
  ...(patch.params_schema !== undefined && { params_schema: toJson(patch.params_schema) }),
  updated_at: patch.updated_at,
});

const idTaken = (what: string, id: string) =>
  conflict(`A ${what} with id ${id} already exists.`, [
    { path: 'id', message: `This id is already taken by another ${what}.` },
  ]);

const unknownResultType = (id: string | undefined) =>
  unprocessable(`Data result type ${id} does not exist: see GET /api/v1/data-result-types.`, [
    { path: 'result_type_id', message: `Data result type ${id} does not exist.` },
  ]);

/**
 * Result types and data sources. Every refusal that depends on other rows
 * (a taken id, an unknown result type, a delete held back by a reference) is
 * settled by a constraint and translated here, so two admins cannot race past it.
 */
export function catalogRepository({ db, dialect }: Database): DataCatalogRepository {
  const translate = async <T>(
    work: () => Promise<T>,
    onError: { unique?: () => Error; foreignKey?: () => Error | Promise<Error> },
  ): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (onError.unique && dialect.isUniqueViolation(error)) throw onError.unique();
      if (onError.foreignKey && dialect.isForeignKeyViolation(error)) throw await onError.foreignKey();
      throw error;
    }
  };

  const namesOf = (rows: { id: string }[]) => rows.map((r) => r.id).join(', ');

  return {
    async listResultTypes(page) {
      const rows = await db
        .selectFrom('data_result_types')
        .selectAll()
        .orderBy('id')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      const total = await db
        .selectFrom('data_result_types')
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirst();
      return { rows: rows.map(toResultType), total: countOf(total) };
    },
    async findResultType(id) {
      const row = await db.selectFrom('data_result_types').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toResultType(row);
    },
    async createResultType(input) {
      const row = await translate(
        () =>
          db
            .insertInto('data_result_types')
            .values({
              id: input.id,
              title: input.title,
              schema_json: toJson(input.schema_json),
              stub: toJson(input.stub),
              created_at: input.created_at,
              updated_at: input.updated_at,
            })
            .returningAll()
            .executeTakeFirstOrThrow(),
        { unique: () => idTaken('data result type', input.id) },
      );
      return toResultType(row);
    },
    async updateResultType(id, patch) {
      const row = await db
        .updateTable('data_result_types')
        .set(resultTypeColumns(patch))
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row && toResultType(row);
    },
    async deleteResultType(id) {
      const result = await translate(() => db.deleteFrom('data_result_types').where('id', '=', id).executeTakeFirst(), {
        foreignKey: async () => {
          const users = await db
            .selectFrom('data_sources')
            .select('id')
            .where('result_type_id', '=', id)
            .orderBy('id')
            .execute();
          return conflict(
            `Data result type ${id} is returned by data sources (${namesOf(users)}): change or delete them first.`,
          );
        },
      });
      return Number(result.numDeletedRows) > 0;
    },

    async listSources(page) {
      const rows = await db
        .selectFrom('data_sources')
        .selectAll()
        .orderBy('id')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      const total = await db
        .selectFrom('data_sources')
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirst();
      return { rows: rows.map(toSource), total: countOf(total) };
    },
    async findSource(id) {
      const row = await db.selectFrom('data_sources').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toSource(row);
    },
    async createSource(input) {
      const row = await translate(
        () =>
          db
            .insertInto('data_sources')
            .values({
              id: input.id,
              title: input.title,
              description: input.description,
              result_type_id: input.result_type_id,
              params_schema: toJson(input.params_schema),
              created_at: input.created_at,
              updated_at: input.updated_at,
            })
            .returningAll()
            .executeTakeFirstOrThrow(),
        { unique: () => idTaken('data source', input.id), foreignKey: () => unknownResultType(input.result_type_id) },
      );
      return toSource(row);
    },
    async updateSource(id, patch) {
      const row = await translate(
        () =>
          db
            .updateTable('data_sources')
            .set(sourceColumns(patch))
            .where('id', '=', id)
            .returningAll()
            .executeTakeFirst(),
        { foreignKey: () => unknownResultType(patch.result_type_id) },
      );
      return row && toSource(row);
    },
    async deleteSource(id) {
      const result = await translate(() => db.deleteFrom('data_sources').where('id', '=', id).executeTakeFirst(), {
        foreignKey: async () => {
          const blocks = await db
            .selectFrom('block_revision_sources as s')
            .innerJoin('block_revisions as r', 'r.id', 's.revision_id')
            .select('r.block_id')
            .distinct()
            .where('s.source_id', '=', id)
            .orderBy('r.block_id')
            .execute();
          const ids = blocks.map((b) => b.block_id).join(', ');
          return conflict(
            `Data source ${id} is named by binding slots of blocks (${ids}), in their current or earlier revisions: it cannot be deleted.`,
          );
        },
      });
      return Number(result.numDeletedRows) > 0;
    },
  };
}
