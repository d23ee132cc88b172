import { unwrap, type paths } from '../../api/client';
import type { Section } from './section';
import { all, idField, json } from './section';

type DataSource =
  paths['/api/admin/data-sources']['get']['responses'][200]['content']['application/json']['data'][number];
type DataSourceBody = paths['/api/admin/data-sources']['post']['requestBody']['content']['application/json'];
export const dataSources: Section<DataSource> = {
  id: 'data-sources',
  title: 'Data sources',
  intro: 'Where block bindings take their data from, and the params a binding may pass.',
  noun: 'data source',
  list: async (api) => (await unwrap(api.GET('/api/admin/data-sources', all))).data,
  key: (s) => s.id,
  name: (s) => s.title,
  columns: [
    { label: 'Id', value: (s) => s.id },
    { label: 'Result type', value: (s) => s.result_type_id },
  ],
  fields: [
    idField('data source'),
    { name: 'title', label: 'Title', required: true },
    { name: 'description', label: 'Description', kind: 'long' },
    { name: 'result_type_id', label: 'Result type id', description: 'See the result types tab.', required: true },
    {
      name: 'params_schema',
      label: 'Params schema (JSON)',
      description: 'A JSON Schema object with "additionalProperties": false; its properties are the allowed params.',
      kind: 'json',
      required: true,
    },
  ],
  toValues: (s) => ({
    id: s.id,
    title: s.title,
    description: s.description,
    result_type_id: s.result_type_id,
    params_schema: json(s.params_schema),
  }),
  create: (api, body) => unwrap(api.POST('/api/admin/data-sources', { body: body as DataSourceBody })),
  update: (api, s, body) => unwrap(api.PUT('/api/admin/data-sources/{id}', { params: { path: { id: s.id } }, body })),
  remove: (api, s) => unwrap(api.DELETE('/api/admin/data-sources/{id}', { params: { path: { id: s.id } } })),
  removeConsequence: 'The service refuses while a block revision binds to it.',
};
