/**
 * Kept page answers after SQL written directly, past the service, over a
 * connection of the test's own (a script, psql, the migration CLI): each
 * statement alone and in one transaction. Every trigger that keeps a page's
 * version (`pages.content_version` on PostgreSQL, `page_content_versions` on
 * SQLite) is needed by a case here, on both databases.
 */
import { join } from 'node:path';
import Libsql from 'libsql';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newUser, type TestUser } from '../support/factories.js';
import { keptPageFixture } from '../support/kept-page.js';

let reader: TestApp;
let user: TestUser;
let sqlClient: pg.Client | undefined;
let file: InstanceType<typeof Libsql> | undefined;

beforeAll(async () => {
  reader = await startApp();
  user = await newUser(reader);
  if (process.env.DATABASE_URL) {
    sqlClient = new pg.Client({
      connectionString: process.env.DATABASE_URL,
      options: `-c search_path=${reader.config.databaseSchema}`,
    });
    await sqlClient.connect();
  } else {
    file = new Libsql(join(reader.config.dataDir, 'pageblocks.sqlite'));
    file.pragma('busy_timeout = 5000');
    file.pragma('foreign_keys = ON');
  }
});
afterAll(async () => {
  await sqlClient?.end();
  file?.close();
  await reader.close();
});

/** One statement over the test's own connection; `$n` parameters on both databases. */
const run = async (text: string, values: unknown[] = []): Promise<any[]> => {
  if (sqlClient) return (await sqlClient.query(text, values)).rows;
  const statement = file!.prepare(text.replace(/\$(\d+)/g, '?$1'));
  if (statement.reader) return statement.all(values) as any[];
  statement.run(values);
  return [];
};

const read = async (id: number, withBlocks = true) => {
  const r = await reader.call('GET', `/api/v1/pages/${id}`, {
    key: user.key,
    query: withBlocks ? { with_blocks: 1 } : {},
  });
  return { status: r.status, text: r.text, body: r.body };
};

/** Reads twice (the second from what the reader keeps), so that a stale answer would be served next. */
const warm = async (id: number) => {
  await read(id);
  await read(id, false);
  expect((await read(id)).text).toBe((await read(id)).text);
};

const fresh = async (id: number) => {
  const kept = await read(id);
  expect(kept.status).toBe(200);
  expect((await read(id, false)).body).toEqual({ ...kept.body, blocks: null });
  return kept.body;
};

const fixture = () => keptPageFixture(reader, user, 'Direct');

describe('a kept page read after SQL written directly', () => {
  it.runIf(process.env.DATABASE_URL)(
    'serves the kept answer while the version stands still (a write with the triggers off is not seen)',
    async () => {
      const { page } = await fixture();
      await warm(page.id);
      await run(file ? 'begin immediate' : 'begin');
      await run('set local session_replication_role = replica');
      await run("update pages set name = 'Unseen' where id = $1", [page.id]);
      await run('commit');
      expect((await read(page.id)).body.name).toBe('Coherent page');
      await run("update pages set name = 'Seen' where id = $1", [page.id]);
      expect((await fresh(page.id)).name).toBe('Seen');
    },
  );

  it('shows a page row changed', async () => {
    const { page } = await fixture();
    await warm(page.id);
    await run("update pages set meta_title = 'Written outside' where id = $1", [page.id]);
    expect((await fresh(page.id)).meta_title).toBe('Written outside');
  });

  it('shows instances updated, deleted and inserted, each alone', async () => {
    const { page } = await fixture();
    const [first, second_, third] = page.blocks.map((b) => b.id);
    await warm(page.id);
    await run(`update page_blocks set placeholder_values = '{"title":"outside"}' where id = $1`, [first]);
    expect((await fresh(page.id)).blocks[0].placeholder_values).toEqual({ title: 'outside' });

    await warm(page.id);
    await run('delete from page_blocks where id = $1', [third]);
    expect((await fresh(page.id)).blocks.map((b: { id: number }) => b.id)).toEqual([first, second_]);

    await warm(page.id);
    const [added] = await run(
      `insert into page_blocks (page_id, block_id, revision_id, major, minor, placeholder_values,
         bindings, parent_page_block_id, order_index, created_at, updated_at)
       select page_id, block_id, revision_id, major, minor, '{"title":"added"}', bindings, null, 10,
         created_at, updated_at from page_blocks where id = $1 returning id`,
      [first],
    );
    expect((await fresh(page.id)).blocks.map((b: { id: number }) => b.id)).toEqual([first, second_, added.id]);
  });

  it('shows a page row and its instances changed in one transaction', async () => {
    const { page } = await fixture();
    const [first] = page.blocks.map((b) => b.id);
    await warm(page.id);
    await run(file ? 'begin immediate' : 'begin');
    await run("update pages set name = 'Both' where id = $1", [page.id]);
    await run(`update page_blocks set placeholder_values = '{"title":"both"}' where id = $1`, [first]);
    await run('commit');
    const both = await fresh(page.id);
    expect(both.name).toBe('Both');
    expect(both.blocks[0].placeholder_values).toEqual({ title: 'both' });
  });

  it("shows a block's rename and new current revision", async () => {
    const { page, hero } = await fixture();
    await warm(page.id);
    await run("update blocks set name = 'Renamed outside' where id = $1", [hero.id]);
    expect((await fresh(page.id)).blocks[0].block.name).toBe('Renamed outside');

    await warm(page.id);
    const [revision] = await run(
      `insert into block_revisions (block_id, major, minor, template, css, js, schema_content, changelog, created_at)
       select block_id, major + 1, 0, template, css, js, schema_content, null, created_at from block_revisions
       where id = (select current_revision_id from blocks where id = $1) returning id`,
      [hero.id],
    );
    await run('update blocks set current_revision_id = $1 where id = $2', [revision.id, hero.id]);
    const outdated = await fresh(page.id);
    expect(outdated.has_outdated_blocks).toBe(true);
    expect(outdated.blocks[0].update_status).toBe('outdated_major');
  });
});
