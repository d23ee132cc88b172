import type { Api } from '../../api/client';

export type Values = Record<string, string>;
export type Body = Record<string, unknown>;

export interface Field {
  name: string;
  label: string;
  description?: string;
  /** long: a textarea; json: a textarea parsed before sending. */
  kind?: 'text' | 'long' | 'json';
  /** Chosen at creation and never changed (an id). */
  createOnly?: boolean;
  required?: boolean;
}

/**
 * One list of the global catalog. Rows become form strings (`toValues`);
 * `create`/`update` get the parsed values. No `update`/`remove`: the service
 * has no such route.
 */
export interface Section<Row> {
  id: string;
  title: string;
  intro: string;
  /** The singular, in buttons and dialogs. */
  noun: string;
  list: (api: Api) => Promise<Row[]>;
  key: (row: Row) => string | number;
  name: (row: Row) => string;
  columns: { label: string; value: (row: Row) => string }[];
  fields: Field[];
  toValues: (row: Row) => Values;
  create: (api: Api, body: Body) => Promise<unknown>;
  update?: (api: Api, row: Row, body: Body) => Promise<unknown>;
  remove?: (api: Api, row: Row) => Promise<unknown>;
  /** What deleting takes with it. */
  removeConsequence: string;
}

export const all = { params: { query: { limit: 200, offset: 0 } } };
export const json = (value: unknown) => JSON.stringify(value, null, 2);
export const idField = (noun: string): Field => ({
  name: 'id',
  label: 'Id',
  description: `Lowercase letters, digits, “_”, “.” and “-”; the ${noun} keeps it for good.`,
  createOnly: true,
  required: true,
});
