import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkIntegrity } from '../../src/db/integrity.js';
import { startApp, type TestApp } from '../support/app.js';
import { after, race as raceIn, ROUNDS, type Pair } from '../support/races.js';
import type { Reply } from '../support/client.js';
import { admin, newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

/**
 * A delete racing a write that references the deleted object (a block, a
 * site, a folder, a collection, a layout). Whoever wins, the write answers as
 * it does when the object is already gone: the same status at the same
 * `errors[].path`, never a 5xx (PostgreSQL answered 500 with foreign-key
 * violations and a null schema snapshot). Afterwards the stored data holds
 * every reference (`checkIntegrity`).
 */

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
});
afterAll(() => t.close());

const call = (method: string, path: string, body?: unknown) =>
  t.call(method, `/api/v1${path}`, { key: user.key, ...(body === undefined ? {} : { body }) });

const ok = async (reply: Promise<Reply>, status = [200, 201]) => {
  const r = await reply;
  if (!status.includes(r.status)) throw new Error(`setup: ${r.status} ${r.text}`);
  return r.body;
};

const race = <C>(pair: Pair<C>) => raceIn(t, pair);

const block = () => createBlock(t, user, { name: 'Racer', schema_content: [{ name: 'title', type: 'string' }] });
const site = () => newSite(t, user, 'Raced site');
const instance = (blockId: number) => ({ block_id: blockId, placeholder_values: { title: 'x' } });

describe('a write racing the delete of a block it references', () => {
  it('favorite', () =>
    race({
      setup: block,
      remove: (b) => call('DELETE', `/blocks/${b.id}`),
      write: (b) => call('PUT', `/blocks/${b.id}/favorite`),
      wins: [204],
      removals: [204],
    }));

  it('collection add', () =>
    race({
      setup: async () => ({
        block: await block(),
        collection: await ok(call('POST', '/collections', { name: 'Raced' })),
      }),
      remove: (c) => call('DELETE', `/blocks/${c.block.id}`),
      write: (c) => call('POST', `/collections/${c.collection.id}/blocks`, { block_ids: [c.block.id] }),
      wins: [200],
      removals: [204],
    }));

  it('submission', () =>
    race({
      setup: block,
      remove: (b) => call('DELETE', `/blocks/${b.id}`),
      write: (b) => call('POST', `/blocks/${b.id}/submit`),
      wins: [201],
      removals: [204],
    }));

  it('fork of a global block', async () => {
    const root = await admin(t);
    await race({
      setup: async () => {
        const r = await t.call('POST', '/api/admin/blocks', {
          cookie: root.cookie,
          body: { name: 'Global', template: '<p></p>' },
        });
        if (r.status !== 201) throw new Error(`setup: ${r.status} ${r.text}`);
        return r.body as { id: number };
      },
      remove: (b) => t.call('DELETE', `/api/v1/blocks/${b.id}`, { key: root.key }),
      write: (b) => call('POST', `/blocks/${b.id}/fork`),
      wins: [201],
      removals: [204],
    });
  });

  it('page create', async () => {
    const home = await site();
    await race({
      setup: block,
      remove: (b) => call('DELETE', `/blocks/${b.id}`),
      write: (b) => call('POST', '/pages', { name: 'P', site_id: home.id, blocks: [instance(b.id)] }),
      wins: [201],
      removals: [204, 409],
    });
  });

  it('page update with blocks', async () => {
    const home = await site();
    await race({
      setup: async () => ({ block: await block(), page: await createPage(t, user, { name: 'P', site_id: home.id }) }),
      remove: (c) => call('DELETE', `/blocks/${c.block.id}`),
      write: (c) => call('PUT', `/pages/${c.page.id}`, { blocks: [instance(c.block.id)] }),
      wins: [200],
      removals: [204, 409],
    });
  });

  it('page-block add', async () => {
    const home = await site();
    await race({
      setup: async () => ({ block: await block(), page: await createPage(t, user, { name: 'P', site_id: home.id }) }),
      remove: (c) => call('DELETE', `/blocks/${c.block.id}`),
      write: (c) => call('POST', `/pages/${c.page.id}/blocks`, { blocks: [instance(c.block.id)] }),
      wins: [201],
      removals: [204, 409],
    });
  });

  it('page-block replace', async () => {
    const home = await site();
    const standing = await block();
    await race({
      setup: async () => {
        const page = await createPage(t, user, { name: 'P', site_id: home.id, blocks: [instance(standing.id)] });
        return { block: await block(), page, instanceId: page.blocks[0].id as number };
      },
      remove: (c) => call('DELETE', `/blocks/${c.block.id}`),
      write: (c) =>
        call('PUT', `/pages/${c.page.id}/blocks/${c.instanceId}/replace`, {
          block_id: c.block.id,
          placeholder_values: { title: 'y' },
        }),
      wins: [200, 201],
      removals: [204, 409],
    });
  });
});

describe('a write racing the delete of its page', () => {
  // The page read, then its instances read after the delete (none): a position past them was a 400, not the 404.
  it('page-block add at a position', async () => {
    const home = await site();
    const hero = await block();
    await race({
      setup: () => createPage(t, user, { name: 'P', site_id: home.id, blocks: [instance(hero.id), instance(hero.id)] }),
      remove: (page) => call('DELETE', `/pages/${page.id}`),
      write: (page) => call('POST', `/pages/${page.id}/blocks`, { blocks: [instance(hero.id)], position: 2 }),
      wins: [201],
      removals: [204],
    });
  });

  it('page-block move', async () => {
    const home = await site();
    const hero = await block();
    await race({
      setup: () => createPage(t, user, { name: 'P', site_id: home.id, blocks: [instance(hero.id), instance(hero.id)] }),
      remove: (page) => call('DELETE', `/pages/${page.id}`),
      write: (page) => call('PUT', `/pages/${page.id}/blocks/${page.blocks[0].id}/move`, { position: 1 }),
      wins: [200],
      removals: [204],
    });
  });
});

describe('a write racing the delete of a site it references', () => {
  it('page create', () =>
    race({
      setup: site,
      remove: (s) => call('DELETE', `/sites/${s.id}`),
      write: (s) => call('POST', '/pages', { name: 'P', site_id: s.id }),
      wins: [201],
      removals: [204],
    }));

  it('page moved to the site', async () => {
    const home = await site();
    await race({
      setup: async () => ({ site: await site(), page: await createPage(t, user, { name: 'P', site_id: home.id }) }),
      remove: (c) => call('DELETE', `/sites/${c.site.id}`),
      write: (c) => call('PUT', `/pages/${c.page.id}`, { site_id: c.site.id }),
      wins: [200],
      removals: [204],
    });
  });

  it("a page's own change while its site goes (the page keeps no site, as when it went before)", async () => {
    const replies = await Promise.all(
      Array.from({ length: ROUNDS }, async (_, i) => {
        const s = await site();
        const page = await createPage(t, user, { name: 'P', site_id: s.id });
        return Promise.all([
          after(() => call('DELETE', `/sites/${s.id}`), i % 4),
          after(() => call('PUT', `/pages/${page.id}`, { name: 'Renamed', meta_title: 'T' })),
        ]);
      }),
    );
    for (const [removed, renamed] of replies) {
      expect(removed.status).toBe(204);
      expect(renamed.status, renamed.text).toBe(200);
    }
    expect(await checkIntegrity(t.app.database.db)).toEqual([]);
  });

  it('folder create', () =>
    race({
      setup: site,
      remove: (s) => call('DELETE', `/sites/${s.id}`),
      write: (s) => call('POST', '/folders', { name: 'F', site_id: s.id }),
      wins: [201],
      removals: [204],
    }));

  it('provider', () =>
    race({
      setup: site,
      remove: (s) => call('DELETE', `/sites/${s.id}`),
      write: (s) => call('PUT', `/sites/${s.id}/provider/fourcms`, { base_url: 'http://127.0.0.1:9', token: 't' }),
      wins: [200],
      removals: [204],
    }));

  it('layout create', () =>
    race({
      setup: site,
      remove: (s) => call('DELETE', `/sites/${s.id}`),
      write: (s) => call('POST', '/layouts', { name: 'L', site_id: s.id }),
      wins: [201],
      removals: [204],
    }));

  it('a layout renamed while its site goes keeps no site', async () => {
    const replies = await Promise.all(
      Array.from({ length: ROUNDS }, async (_, i) => {
        const s = await site();
        const layout = await ok(call('POST', '/layouts', { name: 'L', site_id: s.id }));
        return Promise.all([
          after(() => call('DELETE', `/sites/${s.id}`), i % 4),
          after(() => call('PUT', `/layouts/${layout.id}`, { name: 'Renamed' })),
        ]);
      }),
    );
    for (const [removed, renamed] of replies) {
      expect(removed.status).toBe(204);
      expect(renamed.status, renamed.text).toBe(200);
    }
    expect(await checkIntegrity(t.app.database.db)).toEqual([]);
  });

  it('the site itself changed', () =>
    race({
      setup: site,
      remove: (s) => call('DELETE', `/sites/${s.id}`),
      write: (s) => call('PUT', `/sites/${s.id}`, { name: 'Renamed' }),
      wins: [200],
      removals: [204],
    }));
});

describe('a write racing the delete of a folder it references', () => {
  const folderIn = async () => {
    const s = await site();
    return { site: s, folder: await ok(call('POST', '/folders', { name: 'F', site_id: s.id })) };
  };

  it('subfolder', () =>
    race({
      setup: folderIn,
      remove: (c) => call('DELETE', `/folders/${c.folder.id}`),
      write: (c) => call('POST', '/folders', { name: 'Sub', site_id: c.site.id, parent_id: c.folder.id }),
      wins: [201],
      removals: [204],
    }));

  it('folder moved into it', () =>
    race({
      setup: async () => {
        const c = await folderIn();
        return { ...c, other: await ok(call('POST', '/folders', { name: 'G', site_id: c.site.id })) };
      },
      remove: (c) => call('DELETE', `/folders/${c.folder.id}`),
      write: (c) => call('PUT', `/folders/${c.other.id}`, { parent_id: c.folder.id }),
      wins: [200],
      removals: [204],
    }));

  it('page create', () =>
    race({
      setup: folderIn,
      remove: (c) => call('DELETE', `/folders/${c.folder.id}`),
      write: (c) => call('POST', '/pages', { name: 'P', site_id: c.site.id, folder_id: c.folder.id }),
      wins: [201],
      removals: [204],
    }));
});

describe('a write racing the delete of the collection or layout it references', () => {
  it('collection add', async () => {
    const b = await block();
    await race({
      setup: () => ok(call('POST', '/collections', { name: 'Raced' })),
      remove: (c) => call('DELETE', `/collections/${c.id}`),
      write: (c) => call('POST', `/collections/${c.id}/blocks`, { block_ids: [b.id] }),
      wins: [200],
      removals: [204],
    });
  });

  it("a site's layout", async () => {
    const s = await site();
    await race({
      setup: () => ok(call('POST', '/layouts', { name: 'L' })),
      remove: (l) => call('DELETE', `/layouts/${l.id}`),
      write: (l) => call('PUT', `/sites/${s.id}`, { layout_id: l.id }),
      wins: [200],
      removals: [204, 409],
    });
    // The last layout the site took may still be bound: the integrity check above held either way.
  });

  it('the database itself refuses a site without its layout, and a layout a site holds', async () => {
    const s = await site();
    const layout = await ok(call('POST', '/layouts', { name: 'Held' }));
    const db = t.app.database.db;
    await expect(
      sql`update sites set layout_id = ${layout.id + 1_000_000} where id = ${s.id}`.execute(db),
    ).rejects.toSatisfy((e) => t.app.database.dialect.isForeignKeyViolation(e));
    await sql`update sites set layout_id = ${layout.id} where id = ${s.id}`.execute(db);
    await expect(sql`delete from layouts where id = ${layout.id}`.execute(db)).rejects.toSatisfy((e) =>
      t.app.database.dialect.isForeignKeyViolation(e),
    );
    expect((await call('DELETE', `/layouts/${layout.id}`)).status).toBe(409);
  });
});

describe('an insert at the end racing deletes of other instances', () => {
  it('never answers about a position the client did not send', async () => {
    const home = await site();
    const b = await block();
    const page = await createPage(t, user, {
      name: 'End',
      site_id: home.id,
      blocks: Array.from({ length: 6 }, () => instance(b.id)),
    });
    const ids = page.blocks.map((x: { id: number }) => x.id);
    const replies = await Promise.all([
      ...ids.map((id: number) => after(() => call('DELETE', `/pages/${page.id}/blocks/${id}`))),
      ...ids.map(() => after(() => call('POST', `/pages/${page.id}/blocks`, { blocks: [instance(b.id)] }))),
    ]);
    expect(replies.map((r) => r.status)).toEqual([...ids.map(() => 204), ...ids.map(() => 201)]);
    // Each insert went to the end of the page as it stood under the lock.
    for (const r of replies.slice(ids.length)) {
      const added = r.body.blocks.at(-1);
      expect(added.order_index).toBe(r.body.blocks.length - 1);
    }
    expect(await checkIntegrity(t.app.database.db)).toEqual([]);
  });
});
