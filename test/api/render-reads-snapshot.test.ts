/**
 * On PostgreSQL a page to render is read by three statements at once, on three
 * pooled connections (the page, its instances, their revisions). A write that
 * commits between them must not show through: here the revisions read is held
 * on a table lock while the other two finish, an instance is deleted and
 * committed, and only then may the revisions read go on. It sees the page
 * without the instance that the instances read still listed.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

describe.runIf(process.env.DATABASE_URL)('rendering reads on PostgreSQL, with a write between them', () => {
  let t: TestApp;
  let user: TestUser;
  let sqlClient: pg.Client;
  let watcher: pg.Client;

  beforeAll(async () => {
    t = await startApp();
    user = await newUser(t);
    const connect = async () => {
      const client = new pg.Client({
        connectionString: process.env.DATABASE_URL,
        options: `-c search_path=${t.config.databaseSchema}`,
      });
      await client.connect();
      return client;
    };
    sqlClient = await connect();
    watcher = await connect();
  });
  afterAll(async () => {
    await sqlClient.end();
    await watcher.end();
    await t.close();
  });

  /** Polls until `ready` answers true (pg_stat_activity moves on its own; there is nothing to await). */
  const until = async (ready: () => Promise<boolean>) => {
    for (let i = 0; i < 500; i++) {
      if (await ready()) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('gave up waiting');
  };
  // Our schema's name is in no column of pg_stat_activity; the lock's relation is ours, though.
  const revisionsReadWaits = async () =>
    (
      await watcher.query(
        `select 1 from pg_locks l join pg_stat_activity a on a.pid = l.pid
         where not l.granted and l.relation = 'block_revisions'::regclass and a.query like '%schema_snapshot%'`,
      )
    ).rowCount! > 0;

  it('renders one committed state: the page without the instance deleted meanwhile', async () => {
    const site = await newSite(t, user);
    const kept = await createBlock(t, user, { name: 'Kept', template: '<p>kept instance</p>' });
    const gone = await createBlock(t, user, { name: 'Gone', template: '<p>deleted instance</p>' });
    const page = await createPage(t, user, {
      name: 'Raced',
      site_id: site.id,
      blocks: [{ block_id: kept.id }, { block_id: gone.id }],
    });
    const goneInstance = page.blocks[1].id as number;

    await sqlClient.query('begin');
    await sqlClient.query('lock table block_revisions in access exclusive mode');
    const preview = t.call('GET', `/api/v1/pages/${page.id}/preview`, { key: user.key });
    await until(revisionsReadWaits);
    // The page and instances reads need no lock on block_revisions: they finish while their sibling waits.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await sqlClient.query('delete from page_blocks where id = $1', [goneInstance]);
    await sqlClient.query('commit');

    const r = await preview;
    expect(r.status, r.text).toBe(200);
    expect(r.text).toContain('kept instance');
    expect(r.text).not.toContain('deleted instance');
  });

  it('renders an unchanged page from the three parallel reads as before', async () => {
    const site = await newSite(t, user);
    const block = await createBlock(t, user, {
      name: 'Plain',
      template: '<p>{{ title }}</p>',
      schema_content: [{ name: 'title', type: 'string' }],
    });
    const page = await createPage(t, user, {
      name: 'Calm',
      site_id: site.id,
      blocks: [{ block_id: block.id, placeholder_values: { title: 'calm one' } }],
    });
    const r = await t.call('GET', `/api/v1/pages/${page.id}/preview`, { key: user.key });
    expect(r.status, r.text).toBe(200);
    expect(r.text).toContain('calm one');
  });

  it('renders a page without instances (nothing to compare its version with: read again in one snapshot)', async () => {
    const site = await newSite(t, user);
    const page = await createPage(t, user, { name: 'Empty', site_id: site.id, meta_title: 'Empty title' });
    const r = await t.call('GET', `/api/v1/pages/${page.id}/preview`, { key: user.key });
    expect(r.status, r.text).toBe(200);
    expect(r.text).toContain('Empty title');
  });
});
