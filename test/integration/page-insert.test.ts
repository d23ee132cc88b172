import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagesRepository } from '../../src/db/repositories/pages/pages.repository.js';
import { StoredJson } from '../../src/shared/stored-json.js';
import { emptyPageFields, type NewInstance, type PageFields } from '../../src/modules/pages/pages.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser } from '../support/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const fields = (name: string, siteId: number): PageFields => ({ ...emptyPageFields(name), site_id: siteId });

// The page write (on PostgreSQL one statement, on SQLite one transaction) under its answer.
describe('a page write', () => {
  it('writes nothing when one of its instances cannot be stored', async () => {
    const user = await newUser(t);
    const site = await newSite(t, user);
    const block = await t.call('POST', '/api/v1/blocks', {
      key: user.key,
      body: { name: 'Line', template: '<p>{{ title }}</p>' },
    });
    const revision = await t.app.database.db
      .selectFrom('blocks')
      .innerJoin('block_revisions as r', 'r.id', 'blocks.current_revision_id')
      .select(['r.id', 'r.major', 'r.minor'])
      .where('blocks.id', '=', block.body.id)
      .executeTakeFirstOrThrow();
    const revision_id = revision.id;
    const version = { major: revision.major, minor: revision.minor };
    const pages = pagesRepository(t.app.database);
    const instance = (blockId: number): NewInstance => ({
      block_id: blockId,
      revision_id,
      version,
      schema_snapshot: StoredJson.of<unknown[]>([]),
      placeholder_values: { title: 'x' },
      bindings: null,
      parent_page_block_id: null,
    });
    const count = async () =>
      Number(
        (
          await t.app.database.db
            .selectFrom('pages')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('owner_id', '=', user.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    // The second instance's block does not exist: its foreign key fails after the page row went in.
    await expect(
      pages.create({
        ownerId: user.id,
        kind: 'article',
        fields: fields('Half', site.id),
        instances: [instance(block.body.id), instance(999_999)],
        now: new Date().toISOString(),
        by: { userId: user.id },
      }),
    ).rejects.toThrow();
    expect(await count()).toBe(before);
    const stored = await t.app.database.db
      .selectFrom('page_blocks')
      .innerJoin('pages', 'pages.id', 'page_blocks.page_id')
      .select('page_blocks.id')
      .where('pages.name', '=', 'Half')
      .execute();
    expect(stored).toEqual([]);

    // With no instance, the page alone, and its answer says so.
    const empty = await pages.create({
      ownerId: user.id,
      kind: 'article',
      fields: fields('Empty', site.id),
      instances: [],
      now: new Date().toISOString(),
      by: { userId: user.id },
    });
    expect(empty.blocks).toEqual([]);
    expect(empty.has_outdated_blocks).toBe(false);
    expect(await count()).toBe(before + 1);
  });
});
