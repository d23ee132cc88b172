import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { newUser, type TestUser } from '../support/factories.js';
import { createBlock } from '../support/library.js';
import { pageBlocksFixture } from '../support/page-blocks-fixture.js';

const { fixture, read, titles, pageWith } = pageBlocksFixture();
let t: TestApp;
let user: TestUser;
let site: { id: number };
beforeAll(() => ({ t, user, site } = fixture));

describe('instances of a page', () => {
  it('adds at a position, moves, changes values and removes', async () => {
    const { hero, page } = await pageWith(['a', 'b']);
    const added = await t.call('POST', `/api/v1/pages/${page.id}/blocks`, {
      key: user.key,
      body: { position: 1, blocks: [{ block_id: hero.id, placeholder_values: { title: 'new' } }] },
    });
    expect(added.status).toBe(201);
    expect(titles(added.body)).toEqual(['a', 'new', 'b']);
    expect(added.body.blocks.map((b: { order_index: number }) => b.order_index)).toEqual([0, 1, 2]);
    const atEnd = await t.call('POST', `/api/v1/pages/${page.id}/blocks`, {
      key: user.key,
      body: { blocks: [{ block_id: hero.id, placeholder_values: { title: 'end' } }] },
    });
    expect(titles(atEnd.body)).toEqual(['a', 'new', 'b', 'end']);

    const [first, , , last] = atEnd.body.blocks;
    const moved = await t.call('PUT', `/api/v1/pages/${page.id}/blocks/${last.id}/move`, {
      key: user.key,
      body: { position: 0 },
    });
    expect(titles(moved.body)).toEqual(['end', 'a', 'new', 'b']);

    const changed = await t.call('PUT', `/api/v1/pages/${page.id}/blocks/${first.id}`, {
      key: user.key,
      body: { placeholder_values: { title: 'A!' } },
    });
    expect(changed.status).toBe(200);
    expect(titles(changed.body)).toEqual(['end', 'A!', 'new', 'b']);

    expect((await t.call('DELETE', `/api/v1/pages/${page.id}/blocks/${first.id}`, { key: user.key })).status).toBe(204);
    const after = await read(page.id);
    expect(titles(after)).toEqual(['end', 'new', 'b']);
    expect(after.blocks.map((b: { order_index: number }) => b.order_index)).toEqual([0, 1, 2]);
  });

  it('refuses bad positions, bad values and a foreign instance, changing nothing', async () => {
    const { hero, page } = await pageWith(['a', 'b']);
    const before = await read(page.id);
    const pb = before.blocks[0].id;
    const cases: Array<[string, string, unknown, number, string[]]> = [
      [
        'POST',
        `/api/v1/pages/${page.id}/blocks`,
        { position: -1, blocks: [{ block_id: hero.id, placeholder_values: { title: 'x' } }] },
        400,
        ['position'],
      ],
      [
        'POST',
        `/api/v1/pages/${page.id}/blocks`,
        { position: 3, blocks: [{ block_id: hero.id, placeholder_values: { title: 'x' } }] },
        400,
        ['position'],
      ],
      [
        'POST',
        `/api/v1/pages/${page.id}/blocks`,
        { blocks: [{ block_id: hero.id, placeholder_values: { title: 'x' } }, { block_id: hero.id }] },
        400,
        ['blocks[1].placeholder_values.title'],
      ],
      ['PUT', `/api/v1/pages/${page.id}/blocks/${pb}/move`, { position: 2 }, 400, ['position']],
      ['PUT', `/api/v1/pages/${page.id}/blocks/${pb}/move`, { position: -1 }, 400, ['position']],
      [
        'PUT',
        `/api/v1/pages/${page.id}/blocks/${pb}`,
        { placeholder_values: { title: 7 } },
        400,
        ['placeholder_values.title'],
      ],
      [
        'PUT',
        `/api/v1/pages/${page.id}/blocks/${pb}/replace`,
        { block_id: hero.id, placeholder_values: {} },
        400,
        ['placeholder_values.title'],
      ],
      ['PUT', `/api/v1/pages/${page.id}/blocks/999999/move`, { position: 0 }, 404, []],
    ];
    for (const [method, path, body, status, expected] of cases) {
      const r = await t.call(method, path, { key: user.key, body });
      expect(r.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
      expect((r.body.errors ?? []).map((e: { path: string }) => e.path)).toEqual(expected);
    }
    expect(await read(page.id)).toEqual(before);
  });

  it('nests instances under a layout block only, on the same page', async () => {
    const columns = await createBlock(t, user, {
      name: 'Columns',
      kind: 'layout',
      template: '<div class="cols">{{ children }}</div>',
    });
    const { hero, page } = await pageWith(['a']);
    const withLayout = await t.call('POST', `/api/v1/pages/${page.id}/blocks`, {
      key: user.key,
      body: { blocks: [{ block_id: columns.id }] },
    });
    const layoutId = withLayout.body.blocks[1].id;
    const heroId = withLayout.body.blocks[0].id;
    const child = await t.call('POST', `/api/v1/pages/${page.id}/blocks`, {
      key: user.key,
      body: {
        blocks: [{ block_id: hero.id, placeholder_values: { title: 'inside' }, parent_page_block_id: layoutId }],
      },
    });
    expect(child.status).toBe(201);
    expect(child.body.blocks[2].parent_page_block_id).toBe(layoutId);

    const other = await pageWith(['z']);
    const foreignParent = await t.call('POST', `/api/v1/pages/${other.page.id}/blocks`, {
      key: user.key,
      body: { blocks: [{ block_id: hero.id, placeholder_values: { title: 'x' }, parent_page_block_id: layoutId }] },
    });
    expect(foreignParent.status).toBe(400);
    expect(foreignParent.body.errors[0].path).toBe('blocks[0].parent_page_block_id');
    const notLayout = await t.call('POST', `/api/v1/pages/${page.id}/blocks`, {
      key: user.key,
      body: { blocks: [{ block_id: hero.id, placeholder_values: { title: 'x' }, parent_page_block_id: heroId }] },
    });
    expect(notLayout.status).toBe(400);
    expect(notLayout.body.errors[0].message).toMatch(/not a layout/);
    const inWholeSet = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: {
        name: 'x',
        site_id: site.id,
        blocks: [{ block_id: hero.id, placeholder_values: { title: 'x' }, parent_page_block_id: layoutId }],
      },
    });
    expect(inWholeSet.status).toBe(400);
  });
});

describe('moving into and out of layouts', () => {
  it('moves an instance into a layout and out again; refuses a non-layout, a foreign parent and a cycle', async () => {
    const columns = await createBlock(t, user, {
      name: 'Columns',
      kind: 'layout',
      template: '<div class="cols">{{ children }}</div>',
    });
    const { page } = await pageWith(['a', 'b']);
    const added = await t.call('POST', `/api/v1/pages/${page.id}/blocks`, {
      key: user.key,
      body: { blocks: [{ block_id: columns.id }, { block_id: columns.id }] },
    });
    const [a, b, outer, inner] = added.body.blocks.map((x: { id: number }) => x.id);
    const move = (pbId: number, body: Record<string, unknown>) =>
      t.call('PUT', `/api/v1/pages/${page.id}/blocks/${pbId}/move`, { key: user.key, body });
    const parents = async () =>
      Object.fromEntries(
        (await read(page.id)).blocks.map((x: { id: number; parent_page_block_id: number | null }) => [
          x.id,
          x.parent_page_block_id,
        ]),
      );

    const into = await move(a, { position: 3, parent_page_block_id: outer });
    expect(into.status).toBe(200);
    expect(into.body.blocks.map((x: { id: number }) => x.id)).toEqual([b, outer, inner, a]);
    expect(await parents()).toEqual({ [a]: outer, [b]: null, [outer]: null, [inner]: null });
    const preview = await t.call('GET', `/api/v1/pages/${page.id}/preview`, { key: user.key });
    // Rendered inside the layout, and only there.
    expect(preview.text).toMatch(/<div class="cols">[^]*<h1>a<\/h1>[^]*<\/div>/);
    expect(preview.text.split('<h1>a</h1>')).toHaveLength(2);

    // A move without parent_page_block_id keeps the parent; a layout goes into another layout.
    expect((await move(a, { position: 0 })).status).toBe(200);
    expect((await parents())[a]).toBe(outer);
    expect((await move(inner, { position: 1, parent_page_block_id: outer })).status).toBe(200);

    const before = await read(page.id);
    const refusals: Array<[number, unknown, number, RegExp]> = [
      [b, a, 400, /not a layout/],
      [outer, inner, 400, /cannot go into itself/],
      [outer, outer, 400, /cannot go into itself/],
      [b, 999_999, 400, /not on this page/],
    ];
    for (const [pbId, parent, status, message] of refusals) {
      const refused = await move(pbId, { position: 0, parent_page_block_id: parent });
      expect(refused.status, `${pbId} into ${String(parent)}`).toBe(status);
      expect(refused.body.errors[0].path).toBe('parent_page_block_id');
      expect(refused.body.errors[0].message).toMatch(message);
    }
    const other = await pageWith(['z']);
    const foreign = await t.call('PUT', `/api/v1/pages/${other.page.id}/blocks/${other.page.blocks[0].id}/move`, {
      key: user.key,
      body: { position: 0, parent_page_block_id: outer },
    });
    expect(foreign.status).toBe(400);
    expect(await read(page.id)).toEqual(before);

    const out = await move(a, { position: 3, parent_page_block_id: null });
    expect(out.status).toBe(200);
    expect((await parents())[a]).toBeNull();
  });
});

describe('usages and deleting a block in use', () => {
  it('lists usages with bounds, and refuses to delete a block on pages (409, nothing deleted)', async () => {
    const { hero, page } = await pageWith(['a', 'b']);
    const usages = await t.call('GET', `/api/v1/blocks/${hero.id}/usages`, { key: user.key, query: { limit: 1 } });
    expect(usages.body).toMatchObject({ total: 2, limit: 1, offset: 0, outdated_total: 0 });
    expect(usages.body.data).toHaveLength(1);
    for (const query of [{ limit: 500 }, { outdated: 2 }] as Record<string, number>[]) {
      const bad = await t.call('GET', `/api/v1/blocks/${hero.id}/usages`, { key: user.key, query });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].path).toBe(Object.keys(query)[0]);
    }
    const stranger = await newUser(t);
    expect((await t.call('GET', `/api/v1/blocks/${hero.id}/usages`, { key: stranger.key })).status).toBe(403);

    const del = await t.call('DELETE', `/api/v1/blocks/${hero.id}`, { key: user.key });
    expect(del.status).toBe(409);
    expect(del.body.error).toMatch(/used on pages/);
    expect((await t.call('GET', `/api/v1/blocks/${hero.id}`, { key: user.key })).status).toBe(200);
    expect((await read(page.id)).blocks).toHaveLength(2);
  });
});

describe('races', () => {
  it('lets exactly one of two requests for the same slug win', async () => {
    const results = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        t.call('POST', '/api/v1/pages', {
          key: user.key,
          body: { name: `Racer ${i}`, site_id: site.id, slug: 'contested' },
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    const rows = await t.app.database.db.selectFrom('pages').select('id').where('slug', '=', 'contested').execute();
    expect(rows).toHaveLength(1);
  });
});
