import { unwrap, type paths } from '../../api/client';
import type { Section } from './section';
import { all, idField, json } from './section';

type ResultType =
  paths['/api/admin/data-result-types']['get']['responses'][200]['content']['application/json']['data'][number];
type ResultTypeBody = paths['/api/admin/data-result-types']['post']['requestBody']['content']['application/json'];
export const resultTypes: Section<ResultType> = {
  id: 'result-types',
  title: 'Result types',
  intro: 'The shapes of data that data sources return, with a sample that previews show.',
  noun: 'result type',
  list: async (api) => (await unwrap(api.GET('/api/admin/data-result-types', all))).data,
  key: (r) => r.id,
  name: (r) => r.title,
  columns: [{ label: 'Id', value: (r) => r.id }],
  fields: [
    idField('result type'),
    { name: 'title', label: 'Title', required: true },
    { name: 'schema_json', label: 'JSON Schema of the data', kind: 'json', required: true },
    {
      name: 'stub',
      label: 'Sample data (JSON)',
      description: 'Valid against the schema.',
      kind: 'json',
      required: true,
    },
  ],
  toValues: (r) => ({ id: r.id, title: r.title, schema_json: json(r.schema_json), stub: json(r.stub) }),
  create: (api, body) => unwrap(api.POST('/api/admin/data-result-types', { body: body as ResultTypeBody })),
  update: (api, r, body) =>
    unwrap(api.PUT('/api/admin/data-result-types/{id}', { params: { path: { id: r.id } }, body })),
  remove: (api, r) => unwrap(api.DELETE('/api/admin/data-result-types/{id}', { params: { path: { id: r.id } } })),
  removeConsequence: 'The service refuses while a data source returns it.',
};
