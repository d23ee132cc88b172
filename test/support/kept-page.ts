/**
 * The page the kept-answer tests read (page-read-coherence, page-read-direct-sql):
 * on a new site, two instances of a hero block and one of a layout block.
 */
import type { TestApp } from './app.js';
import { newSite, type TestUser } from './factories.js';
import { createBlock, createPage } from './library.js';

/** `blockPrefix` names its blocks (`${blockPrefix} hero`, `${blockPrefix} layout`); the page is 'Coherent page'. */
export async function keptPageFixture(t: TestApp, user: TestUser, blockPrefix: string) {
  const site = await newSite(t, user);
  const hero = await createBlock(t, user, {
    name: `${blockPrefix} hero`,
    schema_content: [{ name: 'title', type: 'string' }],
    template: '<h1>{{ title }}</h1>',
  });
  const layout = await createBlock(t, user, { name: `${blockPrefix} layout`, kind: 'layout' });
  const page = await createPage(t, user, {
    name: 'Coherent page',
    site_id: site.id,
    blocks: [
      { block_id: hero.id, placeholder_values: { title: 'one' } },
      { block_id: hero.id, placeholder_values: { title: 'two' } },
      { block_id: layout.id },
    ],
  });
  return { site, hero, layout, page: page as { id: number; blocks: { id: number }[] } };
}
