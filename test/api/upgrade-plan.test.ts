/**
 * Issue 29, point 4: `GET /blocks/{id}/upgrade-plan`. The summary counts every
 * instance of the caller's behind the target revision; each entry says what an
 * upgrade would do to one instance (its page and place, the bump, fields added
 * with their value, values lost, values and bindings refused at their paths,
 * its HTML before and after). Pagination, `to`, refusals. Both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { admin, newSite, startWithTwoUsers, type TestUser } from '../support/factories.js';
import { createBlock, createPage, feedFields } from '../support/library.js';

let t: TestApp, user: TestUser, other: TestUser, site: { id: number };

beforeAll(async () => ({ t, user, other, site } = await startWithTwoUsers()));
afterAll(() => t.close());

const plan = (id: number, query: Record<string, string | number> = {}, who: TestUser = user) =>
  t.call('GET', `/api/v1/blocks/${id}/upgrade-plan`, { key: who.key, query });
const put = (id: number, body: unknown) => t.call('PUT', `/api/v1/blocks/${id}`, { key: user.key, body });

const fields = [
  { name: 'title', type: 'string', required: true, max_length: 60 },
  { name: 'subtitle', type: 'string' },
];
const LONG = 'A title well over ten';

/**
 * The block on two pages: One holds three instances (long, long, short), Two
 * another block first, then a long one and a short one with a subtitle.
 */
async function used() {
  const block = await createBlock(t, user, {
    name: 'Card',
    template: '<h2>{{ title }}</h2>',
    css: '.card { color: red }',
    schema_content: fields,
  });
  const spacer = await createBlock(t, user, { name: 'Spacer', template: '<hr>' });
  const on = (title: string, extra: Record<string, unknown> = {}) => ({
    block_id: block.id,
    placeholder_values: { title, ...extra },
  });
  const one = await createPage(t, user, { name: 'One', site_id: site.id, blocks: [on(LONG), on(LONG), on('Short')] });
  const two = await createPage(t, user, {
    name: 'Two',
    site_id: site.id,
    blocks: [{ block_id: spacer.id }, on(LONG), on('Short', { subtitle: 'Kept, then lost' })],
  });
  const ids = [...one.blocks, ...two.blocks.slice(1)].map((b: { id: number }) => b.id);
  return { block, one, two, ids };
}

describe('the upgrade plan', () => {
  it('tightened max_length, a new field with its default, a template change: summary and entries', async () => {
    const { block, one, two, ids } = await used();
    const next = [{ ...fields[0], max_length: 10 }, fields[1], { name: 'badge', type: 'string', default: 'New' }];
    const updated = await put(block.id, { schema_content: next, template: '<h2>{{ title }}</h2><em>{{ badge }}</em>' });
    expect(updated.body.version_bump).toBe('minor');

    const r = await plan(block.id);
    expect(r.status).toBe(200);
    expect(r.body.to).toEqual({ major: 1, minor: 1 });
    expect(r.body.summary).toEqual({
      instances: 5,
      pages: 2,
      up_to_date: 0,
      ahead: 0,
      behind: 5,
      pages_behind: 2,
      minor: 2,
      migration: 0,
      blocked: { instances: 3, major: 0, values: 3, bindings: 0 },
      reasons: [{ field: 'title', code: 'too_long', instances: 3 }],
    });
    expect(r.body.total).toBe(5);
    expect(r.body.data.map((e: any) => e.id)).toEqual(ids);
    expect(r.body.data.map((e: any) => [e.page.name, e.position])).toEqual([
      ['One', 0],
      ['One', 1],
      ['One', 2],
      ['Two', 1],
      ['Two', 2],
    ]);
    const [long, , short] = r.body.data;
    expect(long).toMatchObject({
      page: { id: one.id, name: 'One' },
      from: { major: 1, minor: 0 },
      to: { major: 1, minor: 1 },
      bump: 'minor',
      status: 'blocked',
      blocked_by: ['values'],
      migration: false,
      added: [{ field: 'badge', value: 'New', from_default: true }],
      removed_fields: [],
      lost: [],
      values_after: { title: LONG, badge: 'New' },
      invalid_values: [{ path: 'placeholder_values.title', code: 'too_long' }],
      invalid_bindings: [],
    });
    expect(long.html).toEqual({
      before: `<h2>${LONG}</h2>`,
      after: `<h2>${LONG}</h2><em>New</em>`,
      changed: true,
      assets_changed: false,
      errors: [],
    });
    expect(short).toMatchObject({ status: 'ready', blocked_by: [], invalid_values: [] });
    expect(r.body.data[3].page).toEqual({ id: two.id, name: 'Two' });
    // Nothing was written: the instances stay on 1.0.
    const usages = await t.call('GET', `/api/v1/blocks/${block.id}/usages`, { key: user.key });
    expect(usages.body.data.map((u: any) => u.version)).toEqual(Array(5).fill({ major: 1, minor: 0 }));
  });

  it('a CSS-only change leaves the HTML unchanged (changed false, assets_changed true)', async () => {
    const { block } = await used();
    expect((await put(block.id, { css: '.card { color: blue }' })).body.version_bump).toBe('minor');
    const r = await plan(block.id);
    expect(r.body.summary).toMatchObject({ behind: 5, minor: 5, blocked: { instances: 0 } });
    for (const entry of r.body.data) {
      expect(entry.html.changed).toBe(false);
      expect(entry.html.assets_changed).toBe(true);
      expect(entry.html.before).toBe(entry.html.after);
    }
  });

  it('a removed field and a new required field: major, the values lost, the value refused at its path', async () => {
    const { block, ids } = await used();
    const next = [fields[0], { name: 'cta_label', type: 'string', required: true }];
    const updated = await put(block.id, { schema_content: next });
    expect(updated.body.version_bump).toBe('major');
    const r = await plan(block.id);
    expect(r.body.to).toEqual({ major: 2, minor: 0 });
    expect(r.body.summary).toMatchObject({
      behind: 5,
      minor: 0,
      blocked: { instances: 5, major: 5, values: 5, bindings: 0 },
      reasons: [{ field: 'cta_label', code: 'required', instances: 5 }],
    });
    const lost = r.body.data.find((e: any) => e.id === ids[4]);
    expect(lost).toMatchObject({
      bump: 'major',
      blocked_by: ['major', 'values'],
      removed_fields: ['subtitle'],
      lost: [{ path: 'subtitle', value: 'Kept, then lost' }],
      added: [{ field: 'cta_label', value: null, from_default: false }],
      values_after: { title: 'Short' },
      invalid_values: [{ path: 'placeholder_values.cta_label', code: 'required' }],
    });
    // An instance without a subtitle loses nothing.
    expect(r.body.data[0]).toMatchObject({ removed_fields: ['subtitle'], lost: [] });
  });

  it('a major whose migrations carry the removed fields: migration, ready, the values moved; a step that cannot convert blocks its instance', async () => {
    const block = await createBlock(t, user, {
      name: 'Price',
      template: '<h2>{{ heading }}</h2><p>{{ price }}</p>',
      schema_content: [
        { name: 'heading', type: 'string', required: true },
        { name: 'price', type: 'string' },
      ],
    });
    const on = (price: string) => ({ block_id: block.id, placeholder_values: { heading: 'Sale', price } });
    const shop = await createPage(t, user, { name: 'Shop', site_id: site.id, blocks: [on('12.50'), on('cheap')] });
    const v2 = [
      { name: 'title', type: 'string', required: true },
      { name: 'price', type: 'number' },
    ];
    const steps = [
      { op: 'rename', from: 'heading', to: 'title' },
      { op: 'convert', from: 'price' },
    ];
    const updated = await put(block.id, {
      schema_content: v2,
      template: '<h2>{{ title }}</h2><p>{{ price }}</p>',
      migrations: steps,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.version_bump).toBe('major');
    const r = await plan(block.id);
    expect(r.body.summary).toMatchObject({
      behind: 2,
      minor: 0,
      migration: 1,
      blocked: { instances: 1, major: 0, values: 1 },
    });
    const [good, bad] = r.body.data;
    expect(good).toMatchObject({
      bump: 'major',
      migration: true,
      status: 'ready',
      blocked_by: [],
      removed_fields: ['heading'],
      lost: [],
      values_after: { title: 'Sale', price: 12.5 },
      html: { before: '<h2>Sale</h2><p>12.50</p>', after: '<h2>Sale</h2><p>12.5</p>', changed: true },
    });
    expect(good.migrated).toEqual(
      expect.arrayContaining([
        { path: 'title', before: 'Sale', after: 'Sale' },
        { path: 'price', before: '12.50', after: 12.5 },
      ]),
    );
    expect(bad).toMatchObject({ status: 'blocked', blocked_by: ['values'] });
    expect(bad.invalid_values[0].path).toBe('placeholder_values.price');

    // Upgrading everywhere takes the migratable major only when asked to.
    const without = await t.call('POST', `/api/v1/blocks/${block.id}/upgrades`, { key: user.key, body: {} });
    expect(without.body).toMatchObject({ id: null, upgraded: [] });
    expect(without.body.skipped.map((s: any) => s.blocked_by)).toEqual([['migration'], ['values']]);
    const taken = await t.call('POST', `/api/v1/blocks/${block.id}/upgrades`, {
      key: user.key,
      body: { include_migratable: true },
    });
    expect(taken.body.upgraded.map((u: any) => u.id)).toEqual([shop.blocks[0].id]);
    const now = await t.call('GET', `/api/v1/pages/${shop.id}`, { key: user.key, query: { with_blocks: 1 } });
    expect(now.body.blocks[0]).toMatchObject({
      placeholder_values: { title: 'Sale', price: 12.5 },
      version: { major: 2 },
    });
  });

  it('the issue’s cases fixed where they stand: a value step makes the blocked instances ready, and upgrading everywhere applies it', async () => {
    const { block, one, ids } = await used();
    const tighter = [
      { ...fields[0], max_length: 10 },
      fields[1],
      { name: 'cta_label', type: 'string', required: true },
    ];
    expect((await put(block.id, { schema_content: tighter })).body.version_bump).toBe('minor');
    const before = await plan(block.id);
    expect(before.body.summary).toMatchObject({ minor: 0, migration: 0, blocked: { instances: 5, values: 5 } });
    const fix = await put(block.id, {
      migrations: [
        { op: 'derive', to: 'title', expression: '{{ title | slice: 0, 10 }}' },
        { op: 'default', to: 'cta_label', value: 'Read more' },
      ],
    });
    expect(fix.status, fix.text).toBe(200);
    const after = await plan(block.id);
    expect(after.status, after.text).toBe(200);
    expect(after.body.summary).toMatchObject({ behind: 5, minor: 0, migration: 5, blocked: { instances: 0 } });
    expect(after.body.data[0]).toMatchObject({
      bump: 'minor',
      migration: true,
      status: 'ready',
      values_after: { title: 'A title we', cta_label: 'Read more' },
      html: { before: `<h2>${LONG}</h2>`, after: '<h2>A title we</h2>', changed: true },
    });
    expect(after.body.data[0].migrated).toEqual(
      expect.arrayContaining([
        { path: 'title', before: LONG, after: 'A title we' },
        { path: 'cta_label', before: null, after: 'Read more' },
      ]),
    );
    const set = await t.call('POST', `/api/v1/blocks/${block.id}/upgrades`, { key: user.key, body: {} });
    expect(set.body.upgraded.map((u: any) => u.id)).toEqual(ids);
    const now = await t.call('GET', `/api/v1/pages/${one.id}`, { key: user.key, query: { with_blocks: 1 } });
    expect(now.body.blocks[0].placeholder_values).toEqual({ title: 'A title we', cta_label: 'Read more' });
  });

  it('pages through the entries; the summary is the whole plan on every page', async () => {
    const { block, ids } = await used();
    await put(block.id, { template: '<h3>{{ title }}</h3>' });
    const seen: number[] = [];
    for (const offset of [0, 2, 4]) {
      const r = await plan(block.id, { limit: 2, offset });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ total: 5, limit: 2, offset });
      expect(r.body.summary.behind).toBe(5);
      seen.push(...r.body.data.map((e: any) => e.id));
      for (const e of r.body.data)
        expect(e.html).toMatchObject({ before: `<h2>${e.values_after.title}</h2>`, changed: true });
    }
    expect(seen).toEqual(ids);
    expect((await plan(block.id)).body.limit).toBe(50);
    expect((await plan(block.id, { offset: 5 })).body.data).toEqual([]);
    const tooMany = await plan(block.id, { limit: 201 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors.map((e: any) => e.path)).toEqual(['limit']);
  });

  it('`to` plans an older target; instances past it are ahead; a bad `to` is refused at `to`', async () => {
    const { block, two } = await used();
    await put(block.id, { template: '<h3>{{ title }}</h3>' });
    await put(block.id, { template: '<h4>{{ title }}</h4>' });
    expect((await t.call('POST', `/api/v1/pages/${two.id}/blocks/upgrade-all`, { key: user.key })).status).toBe(200);
    const r = await plan(block.id, { to: '1.1' });
    expect(r.status).toBe(200);
    expect(r.body.to).toEqual({ major: 1, minor: 1 });
    expect(r.body.summary).toMatchObject({ instances: 5, behind: 3, ahead: 2, up_to_date: 0, pages_behind: 1 });
    expect(r.body.data[0].html.after).toBe(`<h3>${LONG}</h3>`);
    const current = await plan(block.id);
    expect(current.body.summary).toMatchObject({ behind: 3, up_to_date: 2, ahead: 0 });
    expect(current.body.data[0].html.after).toBe(`<h4>${LONG}</h4>`);

    const missing = await plan(block.id, { to: '9.9' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([expect.objectContaining({ path: 'to', code: 'not_found' })]);
    for (const bad of ['abc', '1', '1.2.3', '01.0']) {
      const refused = await plan(block.id, { to: bad });
      expect(refused.status).toBe(400);
      expect(refused.body.errors.map((e: any) => e.path)).toEqual(['to']);
    }
  });

  it('a binding whose source the new revision no longer allows would stop validating', async () => {
    const block = await createBlock(t, user, {
      name: 'Feed',
      template: '<h2>{{ heading }}</h2>{% for a in news %}<p>{{ a.title }}</p>{% endfor %}',
      schema_content: feedFields,
    });
    const byRubric = { news: { source: 'articles.by_rubric', params: { category_id: 4 } } };
    await createPage(t, user, {
      name: 'Feeds',
      site_id: site.id,
      blocks: [{ block_id: block.id, bindings: byRubric }, { block_id: block.id }],
    });
    const narrowed = feedFields.map((f) => (f.name === 'news' ? { ...f, allowed_sources: ['articles.latest'] } : f));
    expect((await put(block.id, { schema_content: narrowed })).body.version_bump).toBe('minor');
    const r = await plan(block.id);
    expect(r.body.summary).toMatchObject({ behind: 2, minor: 1, blocked: { instances: 1, bindings: 1, values: 0 } });
    expect(r.body.data[0]).toMatchObject({
      status: 'blocked',
      blocked_by: ['bindings'],
      invalid_bindings: [{ path: 'bindings.news.source', code: 'not_allowed' }],
    });
    // Rendered with the stub of the bound source, on both sides: the same HTML.
    expect(r.body.data[0].html.before).toContain('<h2>Latest</h2><p>');
    expect(r.body.data[0].html.changed).toBe(false);
  });

  it('an instance whose target revision cannot render: its after is null with the reason, its before still renders', async () => {
    const { block } = await used();
    await put(block.id, { template: '<h3>{{ title }}</h3>' });
    // Stored past the service (a template saved before parse checks): it fails only when rendered.
    await t.app.database.db
      .updateTable('block_revisions')
      .set({ template: '<ul>{% for e in events %}<li>{{ e.title }}</li></ul>' })
      .where('block_id', '=', block.id)
      .where('minor', '=', 1)
      .execute();
    const r = await plan(block.id, { limit: 2 });
    expect(r.status).toBe(200);
    for (const entry of r.body.data) {
      expect(entry.html.before).toBe(`<h2>${entry.values_after.title}</h2>`);
      expect(entry.html.after).toBeNull();
      expect(entry.html.changed).toBe(true);
      expect(entry.html.errors).toEqual([
        'The template cannot be rendered: Liquid syntax error: tag {% for e in events %} not closed, line:1, col:5.',
      ]);
    }
  });

  it("another user's private block is refused as every block route refuses it; only the caller's instances count", async () => {
    const { block } = await used();
    const theirs = await plan(block.id, {}, other);
    expect(theirs.status).toBe(403);
    expect((await plan(999_999)).status).toBe(404);

    const boss = await admin(t);
    const created = await t.call('POST', '/api/admin/blocks', {
      cookie: boss.cookie,
      body: { name: 'Shared', template: '<p>{{ title }}</p>', schema_content: fields },
    });
    const shared = created.body.id as number;
    for (const [who, name] of [
      [user, 'Mine'],
      [other, 'Theirs'],
    ] as const)
      await createPage(t, who, {
        name,
        site_id: who === user ? site.id : (await newSite(t, other)).id,
        blocks: [{ block_id: shared, placeholder_values: { title: 'Hello' } }],
      });
    await t.call('PUT', `/api/admin/blocks/${shared}`, {
      cookie: boss.cookie,
      body: { template: '<p>{{ title }}!</p>' },
    });
    const r = await plan(shared);
    expect(r.status).toBe(200);
    expect(r.body.summary).toMatchObject({ instances: 1, pages: 1, behind: 1 });
    expect(r.body.data[0].page.name).toBe('Mine');
    expect(r.body.data[0].html).toMatchObject({ before: '<p>Hello</p>', after: '<p>Hello!</p>', changed: true });
  });
});

describe('the upgrade plan over MCP', () => {
  it('get_upgrade_plan answers the route’s plan, `to` and paging included', async () => {
    const { block } = await used();
    await put(block.id, { template: '<h3>{{ title }}</h3>' });
    const call = (args: Record<string, unknown>) =>
      t.call('POST', '/api/v1/mcp', {
        key: user.key,
        headers: { accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_upgrade_plan', arguments: args } },
      });
    const answer = await call({ id: block.id, to: '1.1', limit: 2 });
    const result = answer.body.result;
    expect(result.isError).toBeFalsy();
    const plan = JSON.parse(result.content[0].text);
    expect(plan).toMatchObject({ to: { major: 1, minor: 1 }, total: 5, limit: 2, summary: { behind: 5, minor: 5 } });
    expect(plan.data[0].html).toMatchObject({ before: `<h2>${LONG}</h2>`, after: `<h3>${LONG}</h3>`, changed: true });
    const refused = (await call({ id: block.id, to: '7.0' })).body.result;
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toContain('"path":"to"');
  });
});
