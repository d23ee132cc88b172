import { unwrap } from '../../api/client';
import type { Field, Section } from './section';
import { all } from './section';

type Tag = { id: number; name: string; slug: string };
// The bodies are built from the fields below; the service checks them and names a wrong field in errors[].
type TagBody = { name: string; slug?: string };

const tagFields: Field[] = [
  { name: 'name', label: 'Name', required: true },
  {
    name: 'slug',
    label: 'Slug',
    description: 'Lowercase letters and digits joined by hyphens; made from the name when empty.',
  },
];

export const tags: Section<Tag> = {
  id: 'tags',
  title: 'Block tags',
  intro: 'Tags of blocks: the library filters by them.',
  noun: 'tag',
  list: async (api) => (await unwrap(api.GET('/api/admin/tags', all))).data,
  key: (t) => t.id,
  name: (t) => t.name,
  columns: [{ label: 'Slug', value: (t) => t.slug }],
  fields: tagFields,
  toValues: (t) => ({ name: t.name, slug: t.slug }),
  create: (api, body) => unwrap(api.POST('/api/admin/tags', { body: body as TagBody })),
  update: (api, t, body) =>
    unwrap(api.PUT('/api/admin/tags/{id}', { params: { path: { id: t.id } }, body: body as TagBody })),
  remove: (api, t) => unwrap(api.DELETE('/api/admin/tags/{id}', { params: { path: { id: t.id } } })),
  removeConsequence: 'Blocks that carry it lose it.',
};

export const layoutTags: Section<Tag> = {
  ...tags,
  id: 'layout-tags',
  title: 'Layout tags',
  intro: 'Tags of layouts.',
  noun: 'layout tag',
  list: async (api) => (await unwrap(api.GET('/api/admin/layout-tags', all))).data,
  create: (api, body) => unwrap(api.POST('/api/admin/layout-tags', { body: body as TagBody })),
  update: (api, t, body) =>
    unwrap(api.PUT('/api/admin/layout-tags/{id}', { params: { path: { id: t.id } }, body: body as TagBody })),
  remove: (api, t) => unwrap(api.DELETE('/api/admin/layout-tags/{id}', { params: { path: { id: t.id } } })),
  removeConsequence: 'Layouts that carry it lose it.',
};
