import type { TestApp } from './app.js';
import type { TestUser } from './factories.js';

/** A hero block: a required title and a list of items with a required caption. */
export const heroFields = [
  { name: 'title', type: 'string', required: true, max_length: 80 },
  {
    name: 'items',
    type: 'array',
    items: { type: 'object', fields: [{ name: 'caption', type: 'string', required: true }] },
  },
];

/** A block with one live-data slot fed by the seeded article sources. */
export const feedFields = [
  { name: 'heading', type: 'string', default: 'Latest' },
  {
    name: 'news',
    type: 'binding',
    allowed_sources: ['articles.latest', 'articles.by_rubric'],
    result_type: 'article_list',
    default: { source: 'articles.latest', params: { limit: 3 } },
  },
];

export async function createBlock(
  t: TestApp,
  user: TestUser,
  body: Record<string, unknown>,
): Promise<{ id: number; name: string }> {
  const r = await t.call('POST', '/api/v1/blocks', { key: user.key, body: { template: '<div></div>', ...body } });
  if (r.status !== 201) throw new Error(`block creation failed: ${r.status} ${r.text}`);
  return r.body;
}

export async function createPage(t: TestApp, user: TestUser, body: Record<string, unknown>): Promise<any> {
  const r = await t.call('POST', '/api/v1/pages', { key: user.key, body });
  if (r.status !== 201) throw new Error(`page creation failed: ${r.status} ${r.text}`);
  return r.body;
}

/**
 * A block whose current revision holds `template` as it is, written past the
 * service: a template that does not parse is refused at every save now, but
 * one saved before that check still meets the renderer.
 */
export async function blockWithStoredTemplate(
  t: TestApp,
  user: TestUser,
  body: Record<string, unknown> & { template: string },
): Promise<{ id: number; name: string }> {
  const block = await createBlock(t, user, { ...body, template: '<div></div>' });
  await t.app.database.db
    .updateTable('block_revisions')
    .set({ template: body.template })
    .where('block_id', '=', block.id)
    .execute();
  return block;
}
