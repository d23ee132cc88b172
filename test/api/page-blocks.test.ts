import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage, heroFields } from '../support/library.js';

let t: TestApp;
let user: TestUser;
let site: { id: number };

beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  site = await newSite(t, user);
});
afterAll(() => t.close());

const read = async (id: number) =>
  (await t.call('GET', `/api/v1/pages/${id}`, { key: user.key, query: { with_blocks: 1 } })).body;
const titles = (page: { blocks: { placeholder_values: { title?: string } }[] }) =>
  page.blocks.map((b) => b.placeholder_values.title);
const put = (blockId: number, body: Record<string, unknown>) =>
  t.call('PUT', `/api/v1/blocks/${blockId}`, { key: user.key, body });

async function pageWith(titlesList: string[]) {
  const hero = await createBlock(t, user, {
    name: 'Hero',
    template: '<h1>{{ title }}</h1>',
    schema_content: heroFields,
  });
  const page = await createPage(t, user, {
    name: 'P',
    site_id: site.id,
    blocks: titlesList.map((title) => ({ block_id: hero.id, placeholder_values: { title } })),
  });
  return { hero, page };
}

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

describe('pinning and upgrades', () => {
  it('keeps instances pinned, upgrades minor changes with defaults, blocks major ones', async () => {
    const { hero, page } = await pageWith(['a']);
    const pb = (await read(page.id)).blocks[0].id;
    const upToDate = await t.call('POST', `/api/v1/pages/${page.id}/blocks/${pb}/upgrade`, { key: user.key });
    expect(upToDate.status).toBe(422);
    expect(upToDate.body.error).toMatch(/already up to date/);

    await put(hero.id, {
      template: '<h2>{{ title }}</h2>',
      schema_content: [...heroFields, { name: 'badge', type: 'string', default: 'new' }],
    });
    let page1 = await read(page.id);
    expect(page1.has_outdated_blocks).toBe(true);
    expect(page1.blocks[0]).toMatchObject({ version: { major: 1, minor: 0 }, update_status: 'outdated_minor' });
    const upgraded = await t.call('POST', `/api/v1/pages/${page.id}/blocks/${pb}/upgrade`, { key: user.key });
    expect(upgraded.status).toBe(200);
    expect(upgraded.body.blocks[0]).toMatchObject({
      version: { major: 1, minor: 1 },
      update_status: 'up_to_date',
      placeholder_values: { title: 'a', badge: 'new' },
    });
    expect(upgraded.body.has_outdated_blocks).toBe(false);

    await put(hero.id, { schema_content: [{ name: 'heading', type: 'string' }] });
    page1 = await read(page.id);
    expect(page1.blocks[0].update_status).toBe('outdated_major');
    const blocked = await t.call('POST', `/api/v1/pages/${page.id}/blocks/${pb}/upgrade`, { key: user.key });
    expect(blocked.status).toBe(422);
    expect(blocked.body).toEqual({
      error: 'major_upgrade_blocked',
      message: expect.any(String),
      current_pin: { major: 1, minor: 1 },
      library_version: { major: 2, minor: 0 },
      removed_fields: expect.arrayContaining(['title', 'items', 'badge']),
      migratable: false,
    });
    expect((await read(page.id)).blocks[0].version).toEqual({ major: 1, minor: 1 });
  });

  it('runs the audit flow: has_outdated=1 → upgrade-all → replace for skipped_major', async () => {
    const minorBlock = await createBlock(t, user, {
      name: 'Minor',
      template: 'm',
      schema_content: [{ name: 'x', type: 'string' }],
    });
    const majorBlock = await createBlock(t, user, {
      name: 'Major',
      template: 'M',
      schema_content: [{ name: 'old', type: 'string' }],
    });
    const steady = await createBlock(t, user, { name: 'Steady', template: 's' });
    const page = await createPage(t, user, {
      name: 'Audit',
      site_id: site.id,
      blocks: [
        { block_id: minorBlock.id, placeholder_values: { x: '1' } },
        { block_id: majorBlock.id, placeholder_values: { old: 'keep me' } },
        { block_id: steady.id },
      ],
    });
    await put(minorBlock.id, { template: 'm2' });
    await put(majorBlock.id, { schema_content: [{ name: 'new', type: 'string', required: true }] });

    const outdated = await t.call('GET', '/api/v1/pages', { key: user.key, query: { has_outdated: 1, limit: 200 } });
    expect(outdated.body.data.map((p: { id: number }) => p.id)).toContain(page.id);
    const usages = await t.call('GET', `/api/v1/blocks/${majorBlock.id}/usages`, {
      key: user.key,
      query: { outdated: 1 },
    });
    expect(usages.body).toMatchObject({ total: 1, outdated_total: 1 });
    expect(usages.body.data[0]).toMatchObject({ page_id: page.id, update_status: 'outdated_major' });

    const [minorPb, majorPb, steadyPb] = page.blocks.map((b: { id: number }) => b.id);
    const all = await t.call('POST', `/api/v1/pages/${page.id}/blocks/upgrade-all`, { key: user.key });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      upgraded: [{ id: minorPb, from: { major: 1, minor: 0 }, to: { major: 1, minor: 1 } }],
      skipped_major: [
        {
          id: majorPb,
          current_pin: { major: 1, minor: 0 },
          library_version: { major: 2, minor: 0 },
          removed_fields: ['old'],
          migratable: false,
        },
      ],
      already_up_to_date: [steadyPb],
    });

    const replaced = await t.call('PUT', `/api/v1/pages/${page.id}/blocks/${majorPb}/replace`, {
      key: user.key,
      body: { block_id: majorBlock.id, placeholder_values: { new: 'keep me' } },
    });
    expect(replaced.status).toBe(200);
    const after = replaced.body.page;
    expect(after.blocks[1]).toMatchObject({
      id: replaced.body.id,
      order_index: 1,
      version: { major: 2, minor: 0 },
      update_status: 'up_to_date',
      placeholder_values: { new: 'keep me' },
    });
    expect(after.has_outdated_blocks).toBe(false);
    const none = await t.call('GET', `/api/v1/blocks/${majorBlock.id}/usages`, {
      key: user.key,
      query: { outdated: 1 },
    });
    expect(none.body).toMatchObject({ total: 0, outdated_total: 0 });
    expect(
      (await t.call('GET', '/api/v1/pages', { key: user.key, query: { has_outdated: 1, limit: 200 } })).body.data.map(
        (p: { id: number }) => p.id,
      ),
    ).not.toContain(page.id);
  });

  it('upgrades all or nothing: one minor upgrade that cannot take its values stops them all', async () => {
    const good = await createBlock(t, user, {
      name: 'Good',
      template: 'g',
      schema_content: [{ name: 'a', type: 'string' }],
    });
    const strict = await createBlock(t, user, {
      name: 'Strict',
      template: 's',
      schema_content: [{ name: 'a', type: 'string' }],
    });
    const page = await createPage(t, user, {
      name: 'Atomic',
      site_id: site.id,
      blocks: [{ block_id: good.id }, { block_id: strict.id }],
    });
    await put(good.id, { template: 'g2' });
    // A new required field without a default: existing values cannot satisfy it.
    await put(strict.id, {
      schema_content: [
        { name: 'a', type: 'string' },
        { name: 'b', type: 'string', required: true },
      ],
    });
    const r = await t.call('POST', `/api/v1/pages/${page.id}/blocks/upgrade-all`, { key: user.key });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([{ path: 'placeholder_values.b', message: 'B is required.', code: 'required' }]);
    expect((await read(page.id)).blocks.map((b: { version: { minor: number } }) => b.version.minor)).toEqual([0, 0]);
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

  it('leaves a page consistent after two upgrade-all at once', async () => {
    const { hero, page } = await pageWith(['a', 'b', 'c']);
    await put(hero.id, { template: 'v2' });
    const [one, two] = await Promise.all([
      t.call('POST', `/api/v1/pages/${page.id}/blocks/upgrade-all`, { key: user.key }),
      t.call('POST', `/api/v1/pages/${page.id}/blocks/upgrade-all`, { key: user.key }),
    ]);
    expect([one.status, two.status]).toEqual([200, 200]);
    // Each instance was upgraded by exactly one of them; the other found it up to date.
    const upgraded = [...one.body.upgraded, ...two.body.upgraded].map((u: { id: number }) => u.id).sort();
    expect(upgraded).toEqual(page.blocks.map((b: { id: number }) => b.id).sort());
    const after = await read(page.id);
    expect(
      after.blocks.map((b: { version: { minor: number }; update_status: string }) => [
        b.version.minor,
        b.update_status,
      ]),
    ).toEqual([
      [1, 'up_to_date'],
      [1, 'up_to_date'],
      [1, 'up_to_date'],
    ]);
    expect(titles(after)).toEqual(['a', 'b', 'c']);
  });
});
