import type { PageRequest } from '../../shared/pagination.js';

/** A JSON Schema (draft-07) as stored: a plain object. */
export type JsonSchema = Record<string, unknown>;

/** Ids of data sources and result types, chosen at creation. */
export const CATALOG_ID_PATTERN = /^[a-z][a-z0-9_.-]*$/;
/** Page kinds: what `pages.kind` holds. */
export const PAGE_KIND_PATTERN = /^[a-z][a-z0-9_-]*$/;
/** The page types the service itself relies on: never deleted. */
export const BUILT_IN_PAGE_KINDS: readonly string[] = ['article', 'template', 'layout'];

/** The shape of the data a source returns, and the sample shown in previews. */
export interface DataResultType {
  id: string;
  title: string;
  schema_json: JsonSchema;
  stub: unknown;
  created_at: string;
  updated_at: string;
}

/** Where a binding takes live data from; `params_schema.properties` names every allowed param. */
export interface DataSource {
  id: string;
  title: string;
  description: string;
  result_type_id: string;
  params_schema: JsonSchema;
  created_at: string;
  updated_at: string;
}

export type ResultTypeInput = Pick<DataResultType, 'id' | 'title' | 'schema_json' | 'stub'>;
export type ResultTypePatch = Partial<Omit<ResultTypeInput, 'id'>>;
export type SourceInput = Pick<DataSource, 'id' | 'title' | 'result_type_id' | 'params_schema'> & {
  description?: string;
};
export type SourcePatch = Partial<Omit<DataSource, 'id' | 'created_at' | 'updated_at'>>;

export interface Tag {
  id: number;
  name: string;
  slug: string;
}

export interface PageType {
  kind: string;
  title: string;
}

type Rows<T> = Promise<{ rows: T[]; total: number }>;

/**
 * Port: where result types and data sources are kept. Duplicate ids (409),
 * unknown result types (422) and deletes held back by references (409) are
 * settled by the database's constraints and reported as AppErrors.
 */
export interface DataCatalogRepository {
  listResultTypes(page: PageRequest): Rows<DataResultType>;
  findResultType(id: string): Promise<DataResultType | undefined>;
  createResultType(row: DataResultType): Promise<DataResultType>;
  /** `undefined` when there is no such result type. */
  updateResultType(id: string, patch: ResultTypePatch & { updated_at: string }): Promise<DataResultType | undefined>;
  /** `false` when there was nothing to delete. */
  deleteResultType(id: string): Promise<boolean>;

  listSources(page: PageRequest): Rows<DataSource>;
  findSource(id: string): Promise<DataSource | undefined>;
  createSource(row: DataSource): Promise<DataSource>;
  updateSource(id: string, patch: SourcePatch & { updated_at: string }): Promise<DataSource | undefined>;
  deleteSource(id: string): Promise<boolean>;
}

/** Port: one table of tags (block tags or layout tags); a taken slug is a 409 at `slug`. */
export interface TagsRepository {
  list(page: PageRequest): Rows<Tag>;
  find(id: number): Promise<Tag | undefined>;
  create(input: { name: string; slug: string }): Promise<Tag>;
  update(id: number, patch: { name?: string; slug?: string }): Promise<Tag | undefined>;
  delete(id: number): Promise<boolean>;
}

/** Port: the allowed values of `pages.kind`; a kind in use by pages cannot be deleted (409). */
export interface PageTypesRepository {
  list(page: PageRequest): Rows<PageType>;
  find(kind: string): Promise<PageType | undefined>;
  create(input: PageType): Promise<PageType>;
  update(kind: string, title: string): Promise<PageType | undefined>;
  delete(kind: string): Promise<boolean>;
}
