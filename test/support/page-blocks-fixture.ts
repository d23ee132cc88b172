/**
 * What the page-block tests share: one service, one user with a site, and a
 * page of hero instances made in one call.
 */
import { afterAll, beforeAll } from 'vitest';
import { startApp, type TestApp } from './app.js';
import { newSite, newUser, type TestUser } from './factories.js';
import { createBlock, createPage, heroFields } from './library.js';

export interface PageBlocksFixture {
  t: TestApp;
  user: TestUser;
  site: { id: number };
}

/** Starts the service before the file's tests (and closes it after them); call at the top of a file. */
export function pageBlocksFixture() {
  const f = {} as PageBlocksFixture;
  beforeAll(async () => {
    f.t = await startApp();
    f.user = await newUser(f.t);
    f.site = await newSite(f.t, f.user);
  });
  afterAll(() => f.t.close());

  const read = async (id: number) =>
    (await f.t.call('GET', `/api/v1/pages/${id}`, { key: f.user.key, query: { with_blocks: 1 } })).body;
  const titles = (page: { blocks: { placeholder_values: { title?: string } }[] }) =>
    page.blocks.map((b) => b.placeholder_values.title);
  const put = (blockId: number, body: Record<string, unknown>) =>
    f.t.call('PUT', `/api/v1/blocks/${blockId}`, { key: f.user.key, body });
  const pageWith = async (titlesList: string[]) => {
    const hero = await createBlock(f.t, f.user, {
      name: 'Hero',
      template: '<h1>{{ title }}</h1>',
      schema_content: heroFields,
    });
    const page = await createPage(f.t, f.user, {
      name: 'P',
      site_id: f.site.id,
      blocks: titlesList.map((title) => ({ block_id: hero.id, placeholder_values: { title } })),
    });
    return { hero, page };
  };
  return { fixture: f, read, titles, put, pageWith };
}
