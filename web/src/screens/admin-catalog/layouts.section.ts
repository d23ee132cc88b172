import { unwrap, type paths } from '../../api/client';
import type { Section } from './section';
import { all } from './section';

type Layout = paths['/api/layouts']['get']['responses'][200]['content']['application/json']['data'][number];

export const layouts: Section<Layout> = {
  id: 'layouts',
  title: 'Layouts',
  intro: 'Global page layouts: everyone can use and fork them.',
  noun: 'layout',
  list: async (api) => (await unwrap(api.GET('/api/layouts', all))).data.filter((l) => l.scope === 'global'),
  key: (l) => l.id,
  name: (l) => l.name,
  columns: [{ label: 'Forks', value: (l) => String(l.fork_count) }],
  fields: [
    { name: 'name', label: 'Name', required: true },
    { name: 'template', label: 'Template (Liquid)', kind: 'long' },
    { name: 'css', label: 'CSS', kind: 'long' },
    { name: 'js', label: 'JavaScript', kind: 'long' },
  ],
  toValues: (l) => ({ name: l.name, template: l.template, css: l.css, js: l.js }),
  create: (api, body) => unwrap(api.POST('/api/admin/layouts', { body: body as { name: string } })),
  // A global layout is changed and deleted on the ordinary routes, which let administrators do it.
  update: (api, l, body) => unwrap(api.PUT('/api/layouts/{id}', { params: { path: { id: l.id } }, body })),
  remove: (api, l) => unwrap(api.DELETE('/api/layouts/{id}', { params: { path: { id: l.id } } })),
  removeConsequence: 'Its forks stay, as their owners’ own layouts.',
};
