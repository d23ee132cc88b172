import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

let t: TestApp;
let user: TestUser;
let site: { id: number };
let block: { id: number };

beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  site = await newSite(t, user);
  block = await createBlock(t, user, { name: 'Plain', schema_content: [{ name: 'title', type: 'string' }] });
});
afterAll(() => t.close());

const instances = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ block_id: block.id, placeholder_values: { title: `${i}` } }));
const blockIds = async (pageId: number): Promise<number[]> =>
  (await t.call('GET', `/api/v1/pages/${pageId}`, { key: user.key, query: { with_blocks: 1 } })).body.blocks.map(
    (b: { id: number }) => b.id,
  );

describe('ids are never reused', () => {
  it('PUT /pages/{id} with blocks gives new instances new ids; the old ids are gone', async () => {
    const page = await createPage(t, user, { name: 'Ids', site_id: site.id, blocks: instances(3) });
    const before = await blockIds(page.id);
    const r = await t.call('PUT', `/api/v1/pages/${page.id}`, { key: user.key, body: { blocks: instances(3) } });
    expect(r.status).toBe(200);
    const after = await blockIds(page.id);
    expect(after).toHaveLength(3);
    expect(Math.min(...after)).toBeGreaterThan(Math.max(...before));
    // A client holding an old id reaches nothing, rather than another instance.
    const stale = await t.call('PUT', `/api/v1/pages/${page.id}/blocks/${before[2]}/move`, {
      key: user.key,
      body: { position: 0 },
    });
    expect(stale.status).toBe(404);
  });

  it('a deleted instance, page and site leave their ids behind', async () => {
    const page = await createPage(t, user, { name: 'Last', site_id: site.id, blocks: instances(1) });
    const [instance] = await blockIds(page.id);
    expect((await t.call('DELETE', `/api/v1/pages/${page.id}/blocks/${instance}`, { key: user.key })).status).toBe(204);
    const added = await t.call('POST', `/api/v1/pages/${page.id}/blocks`, {
      key: user.key,
      body: { blocks: instances(1) },
    });
    expect(added.status).toBe(201);
    expect(await blockIds(page.id)).toEqual([expect.any(Number)]);
    expect((await blockIds(page.id))[0]).toBeGreaterThan(instance!);

    expect((await t.call('DELETE', `/api/v1/pages/${page.id}`, { key: user.key })).status).toBe(204);
    const next = await createPage(t, user, { name: 'Next', site_id: site.id, blocks: [] });
    expect(next.id).toBeGreaterThan(page.id);

    const doomed = await newSite(t, user, 'Doomed');
    expect((await t.call('DELETE', `/api/sites/${doomed.id}`, { cookie: user.cookie })).status).toBe(204);
    expect((await newSite(t, user, 'After')).id).toBeGreaterThan(doomed.id);
  });

  it("ids shown in a dry run's answer are never handed out again, whatever the dry run ended with", async () => {
    const dry = { key: user.key, query: { dry_run: 1 } };
    const page = await t.call('POST', '/api/v1/pages', {
      ...dry,
      body: { name: 'Dry', site_id: site.id, blocks: instances(2) },
    });
    expect(page.status).toBe(201);
    const revised = await t.call('PUT', `/api/v1/blocks/${block.id}`, {
      ...dry,
      body: { template: '<h2>{{ title }}</h2>' },
    });
    expect(revised.status).toBe(200);
    // A dry run that fails after writing (the slug is taken by then) hands out nothing either.
    await createPage(t, user, { name: 'Taken', site_id: site.id, slug: 'taken-dry' });
    const conflict = await t.call('POST', '/api/v1/pages', {
      ...dry,
      body: { name: 'Dry 2', site_id: site.id, slug: 'taken-dry', blocks: instances(1) },
    });
    expect(conflict.status).toBe(409);

    const real = await createPage(t, user, { name: 'Real', site_id: site.id, blocks: instances(2) });
    expect(real.id).toBeGreaterThan(page.body.id);
    const dryInstances = page.body.blocks.map((b: { id: number }) => b.id) as number[];
    expect(Math.min(...(await blockIds(real.id)))).toBeGreaterThan(Math.max(...dryInstances));
    const realRevision = await t.call('PUT', `/api/v1/blocks/${block.id}`, {
      key: user.key,
      body: { template: '<h3>{{ title }}</h3>' },
    });
    expect(realRevision.body.block.current_revision.id).toBeGreaterThan(revised.body.block.current_revision.id);
  });

  it.runIf(!process.env.DATABASE_URL)('every SQLite table with an id of its own has AUTOINCREMENT', async () => {
    const { rows } = await sql<{ name: string; sql: string }>`
      select name, sql from sqlite_master where type = 'table' and sql like '%"id" integer%primary key%'`.execute(
      t.app.database.db,
    );
    expect(rows.length).toBeGreaterThanOrEqual(13);
    expect(rows.filter((r) => !/autoincrement/i.test(r.sql)).map((r) => r.name)).toEqual([]);
  });
});
