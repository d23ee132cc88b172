/** Instances pinned to their revision, upgraded one by one or all at once, and two upgrade-all at once. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import type { TestUser } from '../support/factories.js';
import { createBlock, createPage, heroFields } from '../support/library.js';
import { pageBlocksFixture } from '../support/page-blocks-fixture.js';

const { fixture, read, titles, put, pageWith } = pageBlocksFixture();
let t: TestApp;
let user: TestUser;
let site: { id: number };
beforeAll(() => ({ t, user, site } = fixture));

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

describe('upgrades at once', () => {
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
