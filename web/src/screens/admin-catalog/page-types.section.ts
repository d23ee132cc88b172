import { unwrap } from '../../api/client';
import type { Section } from './section';
import { all } from './section';

type PageType = { kind: string; title: string };

export const pageTypes: Section<PageType> = {
  id: 'page-types',
  title: 'Page types',
  intro: 'The kinds a page can have.',
  noun: 'page type',
  list: async (api) => (await unwrap(api.GET('/api/admin/page-types', all))).data,
  key: (p) => p.kind,
  name: (p) => p.title,
  columns: [{ label: 'Kind', value: (p) => p.kind }],
  fields: [
    {
      name: 'kind',
      label: 'Kind',
      description: 'The value of a page’s kind; fixed once created.',
      createOnly: true,
      required: true,
    },
    { name: 'title', label: 'Title', required: true },
  ],
  toValues: (p) => ({ kind: p.kind, title: p.title }),
  create: (api, body) => unwrap(api.POST('/api/admin/page-types', { body: body as PageType })),
  update: (api, p, body) =>
    unwrap(
      api.PUT('/api/admin/page-types/{kind}', { params: { path: { kind: p.kind } }, body: body as { title: string } }),
    ),
  remove: (api, p) => unwrap(api.DELETE('/api/admin/page-types/{kind}', { params: { path: { kind: p.kind } } })),
  removeConsequence: 'Built-in page types cannot be deleted.',
};
