import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage, heroFields } from '../support/library.js';

/* Reading a page's history (list, read, preview, diff) and restoring a version, through /api/v1 and /api. */

let t: TestApp;
let user: TestUser;
let stranger: TestUser;
let site: { id: number };
let hero: { id: number };

beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  stranger = await newUser(t);
  site = await newSite(t, user);
  hero = await createBlock(t, user, {
    name: 'Hero',
    template: '<h1>{{ title }}</h1>{% for i in items %}<p>{{ i.caption }}</p>{% endfor %}',
    schema_content: heroFields,
  });
});
afterAll(() => t.close());

const call = (method: string, path: string, body?: unknown, query?: Record<string, number>, who = user) =>
  t.call(method, path, { key: who.key, ...(body !== undefined && { body }), ...(query && { query }) });
const ok = async (method: string, path: string, body?: unknown, query?: Record<string, number>) => {
  const r = await call(method, path, body, query);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  return r;
};

describe('page history', () => {
  it('lists versions newest first with actor, summary and published; reads one as the page was', async () => {
    const page = await createPage(t, user, {
      name: 'H',
      site_id: site.id,
      blocks: [
        { block_id: hero.id, placeholder_values: { title: 'A', items: [{ caption: 'one' }] } },
        { block_id: hero.id, placeholder_values: { title: 'B' } },
      ],
    });
    const [a, b] = page.blocks.map((x: any) => x.id);
    await ok('PUT', `/api/v1/pages/${page.id}/blocks/${a}`, {
      placeholder_values: { title: 'A2', items: [{ caption: 'uno' }] },
    });
    // Through the web app's session.
    const bySession = await t.call('PUT', `/api/pages/${page.id}`, {
      cookie: user.cookie,
      body: { name: 'H2', meta_title: 'Meta' },
    });
    expect(bySession.status).toBe(200);
    await ok('POST', `/api/v1/pages/${page.id}/blocks`, {
      blocks: [{ block_id: hero.id, placeholder_values: { title: 'C' } }],
    });
    await ok('PUT', `/api/v1/pages/${page.id}/blocks/${b}/move`, { position: 0 });

    const list = await ok('GET', `/api/v1/pages/${page.id}/versions`);
    expect(list.body).toMatchObject({ total: 5, limit: 50, offset: 0 });
    const prefix = user.key.slice(0, 11);
    expect(list.body.data.map((v: any) => [v.number, v.summary, v.actor.via, v.published])).toEqual([
      [5, '1 block moved', 'key', false],
      [4, '1 block added', 'key', false],
      [3, 'metadata changed', 'session', false],
      [2, '1 block changed', 'key', false],
      [1, 'page created with 2 blocks', 'key', false],
    ]);
    expect(list.body.data[0].actor).toEqual({ user_id: user.id, email: user.email, via: 'key', key_prefix: prefix });
    expect(list.body.data[2].actor).toEqual({ user_id: user.id, email: user.email, via: 'session', key_prefix: null });
    const paged = await ok('GET', `/api/v1/pages/${page.id}/versions`, undefined, { limit: 2, offset: 1 });
    expect(paged.body.data.map((v: any) => v.number)).toEqual([4, 3]);

    const v2 = await ok('GET', `/api/v1/pages/${page.id}/versions/2`);
    expect(v2.body).toMatchObject({ id: page.id, name: 'H', version: 2, meta_title: null });
    expect(v2.body.blocks.map((x: any) => [x.id, x.placeholder_values.title, x.version])).toEqual([
      [a, 'A2', { major: 1, minor: 0 }],
      [b, 'B', { major: 1, minor: 0 }],
    ]);
    // The current version reads as the page does.
    const now = await ok('GET', `/api/v1/pages/${page.id}`, undefined, { with_blocks: 1 });
    const v5 = await ok('GET', `/api/v1/pages/${page.id}/versions/5`);
    expect({ ...v5.body, updated_at: undefined }).toEqual({ ...now.body, updated_at: undefined });

    expect((await call('GET', `/api/v1/pages/${page.id}/versions/9`)).status).toBe(404);
    expect((await call('GET', `/api/v1/pages/${page.id}/versions`, undefined, undefined, stranger)).status).toBe(404);
    expect((await call('GET', `/api/v1/pages/${page.id}/versions/1`, undefined, undefined, stranger)).status).toBe(404);
  });

  it('diffs two versions: added, removed, moved, pins, values by path, metadata', async () => {
    const page = await createPage(t, user, {
      name: 'D',
      site_id: site.id,
      blocks: [
        { block_id: hero.id, placeholder_values: { title: 'A', items: [{ caption: 'x' }, { caption: 'y' }] } },
        { block_id: hero.id, placeholder_values: { title: 'B' } },
        { block_id: hero.id, placeholder_values: { title: 'C' } },
      ],
    });
    const [a, b, c] = page.blocks.map((x: any) => x.id);
    await ok('PUT', `/api/v1/pages/${page.id}/blocks/${a}`, {
      placeholder_values: { title: 'A', items: [{ caption: 'x' }, { caption: 'z' }] },
    });
    await ok('DELETE', `/api/v1/pages/${page.id}/blocks/${b}`);
    await ok('PUT', `/api/v1/pages/${page.id}/blocks/${c}/move`, { position: 0 });
    await ok('PUT', `/api/v1/pages/${page.id}`, { meta_title: 'New' });
    const added = await ok('POST', `/api/v1/pages/${page.id}/blocks`, {
      blocks: [{ block_id: hero.id, placeholder_values: { title: 'D' } }],
    });
    const d = added.body.blocks.at(-1).id;
    const diff = await ok('GET', `/api/v1/pages/${page.id}/versions/1/diff`);
    expect(diff.body).toEqual({
      from: 1,
      to: 6,
      blocks: {
        added: [{ id: d, index: 2, block_id: hero.id }],
        removed: [{ id: b, index: 1, block_id: hero.id }],
        moved: [{ id: c, from_index: 2, to_index: 0, from_parent: null, to_parent: null }],
        pins: [],
      },
      values: [{ path: 'blocks[1].placeholder_values.items[1].caption', old: 'y', new: 'z' }],
      metadata: [{ field: 'meta_title', old: null, new: 'New' }],
    });
    const back = await ok('GET', `/api/v1/pages/${page.id}/versions/2/diff`, undefined, { to: 1 });
    expect(back.body.values).toEqual([{ path: 'blocks[0].placeholder_values.items[1].caption', old: 'z', new: 'y' }]);
  });

  it('previews a version with its pinned revisions, byte for byte, after minor and major revisions', async () => {
    const block = await createBlock(t, user, {
      name: 'Changing',
      template: '<h2 class="v1">{{ title }}</h2>',
      css: '.v1{color:red}',
      schema_content: heroFields,
    });
    const page = await createPage(t, user, {
      name: 'P',
      site_id: site.id,
      blocks: [{ block_id: block.id, placeholder_values: { title: 'First' } }],
    });
    const first = (await ok('GET', `/api/v1/pages/${page.id}/preview`)).text;
    await ok('PUT', `/api/v1/pages/${page.id}/blocks/${page.blocks[0].id}`, {
      placeholder_values: { title: 'Second' },
    });
    const second = (await ok('GET', `/api/v1/pages/${page.id}/preview`)).text;
    // A minor revision (template) and a major one (a field removed), then the page upgraded and replaced.
    await ok('PUT', `/api/v1/blocks/${block.id}`, { template: '<h2 class="v2">{{ title }}!</h2>' });
    await ok('POST', `/api/v1/pages/${page.id}/blocks/upgrade-all`);
    await ok('PUT', `/api/v1/blocks/${block.id}`, {
      schema_content: heroFields.slice(0, 1),
      template: '<h3>{{ title }}</h3>',
    });
    const third = (await ok('GET', `/api/v1/pages/${page.id}/preview`)).text;
    expect(third).not.toBe(second);
    expect((await ok('GET', `/api/v1/pages/${page.id}/versions/1/preview`)).text).toBe(first);
    expect((await ok('GET', `/api/v1/pages/${page.id}/versions/2/preview`)).text).toBe(second);
    expect((await ok('GET', `/api/v1/pages/${page.id}/versions/3/preview`)).text).toBe(third);
    expect(first).toContain('First');
  });

  it('restores a version with its pins (outdated again), dry run first; 409 at blocks[i] when a block went', async () => {
    const gone = await createBlock(t, user, { name: 'Soon gone', schema_content: heroFields });
    const page = await createPage(t, user, {
      name: 'R',
      site_id: site.id,
      slug: 'restored',
      blocks: [
        { block_id: hero.id, placeholder_values: { title: 'A' } },
        { block_id: gone.id, placeholder_values: { title: 'G' } },
      ],
    });
    const [a, g] = page.blocks.map((x: any) => x.id);
    await ok('PUT', `/api/v1/blocks/${hero.id}`, { css: 'h1{margin:0}' });
    await ok('POST', `/api/v1/pages/${page.id}/blocks/${a}/upgrade`);
    await ok('PUT', `/api/v1/pages/${page.id}/blocks/${a}`, { placeholder_values: { title: 'A changed' } });
    await ok('PUT', `/api/v1/pages/${page.id}`, { name: 'R renamed' });
    const v1 = (await ok('GET', `/api/v1/pages/${page.id}/versions/1`)).body;

    const dry = await ok('POST', `/api/v1/pages/${page.id}/versions/1/restore`, undefined, { dry_run: 1 });
    expect(dry.body.version).toBe(5);
    expect((await ok('GET', `/api/v1/pages/${page.id}`)).body.version).toBe(4);
    const restored = await ok('POST', `/api/v1/pages/${page.id}/versions/1/restore`);
    expect({ ...restored.body, updated_at: undefined }).toEqual({ ...dry.body, updated_at: undefined });
    expect(restored.body).toMatchObject({ name: 'R', version: 5, has_outdated_blocks: true });
    expect(restored.body.blocks.map((x: any) => [x.id, x.placeholder_values, x.version, x.update_status])).toEqual([
      [a, { title: 'A' }, v1.blocks[0].version, 'outdated_minor'],
      [g, { title: 'G' }, v1.blocks[1].version, 'up_to_date'],
    ]);
    const list = await ok('GET', `/api/v1/pages/${page.id}/versions`, undefined, { limit: 1 });
    expect(list.body.data[0].summary).toBe('restored version 1: 1 block changed, metadata changed');

    // The second block leaves the page, and is deleted: version 1 can no longer be restored nor rendered.
    await ok('DELETE', `/api/v1/pages/${page.id}/blocks/${g}`);
    await ok('DELETE', `/api/v1/blocks/${gone.id}`);
    const before = (await ok('GET', `/api/v1/pages/${page.id}`, undefined, { with_blocks: 1 })).body;
    for (const query of [{ dry_run: 1 }, undefined]) {
      const refused = await call('POST', `/api/v1/pages/${page.id}/versions/1/restore`, undefined, query);
      expect(refused.status).toBe(409);
      expect(refused.body.errors).toEqual([expect.objectContaining({ path: 'blocks[1]' })]);
    }
    expect((await ok('GET', `/api/v1/pages/${page.id}`, undefined, { with_blocks: 1 })).body).toEqual(before);
    const preview = await call('GET', `/api/v1/pages/${page.id}/versions/1/preview`);
    expect(preview.status).toBe(409);
    expect(preview.body.errors[0].path).toBe('blocks[1]');
    const read = await ok('GET', `/api/v1/pages/${page.id}/versions/1`);
    expect(read.body.blocks[1]).toMatchObject({ block: { id: gone.id, name: null }, update_status: 'block_deleted' });
    // Restoring the version that removed it brings the page back as it was then.
    const r = await ok('POST', `/api/v1/pages/${page.id}/versions/6/restore`);
    expect(r.body.blocks.map((x: any) => x.id)).toEqual([a]);
  });

  it('restores an instance removed since as a new one, under its layout', async () => {
    const page = await createPage(t, user, {
      name: 'Back',
      site_id: site.id,
      blocks: [
        { block_id: hero.id, placeholder_values: { title: 'A' } },
        { block_id: hero.id, placeholder_values: { title: 'B' } },
      ],
    });
    const [a, b] = page.blocks.map((x: any) => x.id);
    await ok('DELETE', `/api/v1/pages/${page.id}/blocks/${a}`);
    const r = await ok('POST', `/api/v1/pages/${page.id}/versions/1/restore`);
    expect(r.body.blocks.map((x: any) => [x.placeholder_values.title, x.order_index])).toEqual([
      ['A', 0],
      ['B', 1],
    ]);
    expect(r.body.blocks[0].id).not.toBe(a);
    expect(r.body.blocks[1].id).toBe(b);
  });
});
