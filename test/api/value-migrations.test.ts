/**
 * Issue 29, point 5: value migrations. A block update carries `migrations`,
 * checked against both revisions' fields (422 at the exact path), stored with
 * the revision and chained across several; a major change whose removed fields
 * are all covered is migratable (`upgrade`'s 422 and `upgrade-all`'s
 * `skipped_major` say so) and `POST .../migrate` takes one instance through
 * the chain, all or nothing, one page version. Both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startWithTwoUsers, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

let t: TestApp, user: TestUser, other: TestUser, site: { id: number };

beforeAll(async () => ({ t, user, other, site } = await startWithTwoUsers()));
afterAll(() => t.close());

const dry = { query: { dry_run: 1 } };
const putBlock = (id: number, body: unknown, options: { query?: Record<string, number> } = {}) =>
  t.call('PUT', `/api/v1/blocks/${id}`, { key: user.key, body, ...options });
const getBlock = async (id: number) => (await t.call('GET', `/api/v1/blocks/${id}`, { key: user.key })).body;
const getPage = async (id: number, who = user) =>
  (await t.call('GET', `/api/v1/pages/${id}`, { key: who.key, query: { with_blocks: 1 } })).body;
const migrate = (pageId: number, pbId: number, options: { query?: Record<string, number>; key?: string } = {}) =>
  t.call('POST', `/api/v1/pages/${pageId}/blocks/${pbId}/migrate`, { key: options.key ?? user.key, ...options });

const v1 = [
  { name: 'heading', type: 'string', required: true },
  { name: 'subtitle', type: 'string' },
  { name: 'author_name', type: 'string' },
  { name: 'price', type: 'string' },
  { name: 'items', type: 'array', items: { type: 'object', fields: [{ name: 'caption', type: 'string' }] } },
];
const v2 = [
  { name: 'title', type: 'string', required: true },
  { name: 'author', type: 'object', fields: [{ name: 'name', type: 'string' }] },
  { name: 'price', type: 'number' },
  { name: 'theme', type: 'select', options: ['light', 'dark'] },
  { name: 'items', type: 'array', items: { type: 'object', fields: [{ name: 'text', type: 'string' }] } },
];
const v2Steps = [
  { op: 'rename', from: 'heading', to: 'title' },
  { op: 'drop', from: 'subtitle' },
  { op: 'move', from: 'author_name', to: 'author.name' },
  { op: 'convert', from: 'price' },
  { op: 'default', to: 'theme', value: 'dark' },
  { op: 'rename', from: 'items[].caption', to: 'items[].text' },
];
const values1 = {
  heading: 'Spring sale',
  subtitle: 'gone',
  author_name: 'Ann',
  price: '12.50',
  items: [{ caption: 'one' }, { caption: 'two' }],
};

async function blockOnPage(values: Record<string, unknown> = values1) {
  const block = await createBlock(t, user, { name: 'Card', template: '<h2>{{ heading }}</h2>', schema_content: v1 });
  const page = await createPage(t, user, {
    name: 'Page',
    site_id: site.id,
    blocks: [{ block_id: block.id, placeholder_values: values }],
  });
  return { block, page, pbId: page.blocks[0].id as number };
}

describe('migrations on a block update', () => {
  it('are stored with the revision; a covered major is migratable on upgrade and upgrade-all', async () => {
    const { block, page, pbId } = await blockOnPage();
    const body = { schema_content: v2, template: '<h2>{{ title }}</h2>', migrations: v2Steps };
    const tried = await putBlock(block.id, body, dry);
    expect(tried.status).toBe(200);
    expect(tried.body.version_bump).toBe('major');
    expect((await getBlock(block.id)).version).toEqual({ major: 1, minor: 0 });
    expect((await putBlock(block.id, body)).status).toBe(200);
    const stored = await t.app.database.db
      .selectFrom('block_revisions')
      .select(['migrations'])
      .where('block_id', '=', block.id)
      .where('major', '=', 2)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.migrations)).toEqual(v2Steps);

    const upgrade = await t.call('POST', `/api/v1/pages/${page.id}/blocks/${pbId}/upgrade`, { key: user.key });
    expect(upgrade.status).toBe(422);
    expect(upgrade.body).toMatchObject({ error: 'major_upgrade_blocked', migratable: true });
    const all = await t.call('POST', `/api/v1/pages/${page.id}/blocks/upgrade-all`, { key: user.key });
    expect(all.status).toBe(200);
    expect(all.body.skipped_major).toEqual([
      {
        id: pbId,
        current_pin: { major: 1, minor: 0 },
        library_version: { major: 2, minor: 0 },
        removed_fields: ['heading', 'subtitle', 'author_name', 'items[].caption'],
        migratable: true,
      },
    ]);
  });

  it('a major that leaves a removed field uncovered is not migratable, and migrate refuses it', async () => {
    const { block, page, pbId } = await blockOnPage();
    const steps = v2Steps.filter((s) => s.op !== 'drop');
    expect((await putBlock(block.id, { schema_content: v2, migrations: steps })).status).toBe(200);
    const upgrade = await t.call('POST', `/api/v1/pages/${page.id}/blocks/${pbId}/upgrade`, { key: user.key });
    expect(upgrade.body).toMatchObject({ error: 'major_upgrade_blocked', migratable: false });
    const all = await t.call('POST', `/api/v1/pages/${page.id}/blocks/upgrade-all`, { key: user.key });
    expect(all.body.skipped_major[0].migratable).toBe(false);
    const refused = await migrate(page.id, pbId);
    expect(refused.status).toBe(422);
    expect(refused.body.uncovered_fields).toEqual(['subtitle']);
  });

  it('a wrong path is 422 at its exact place, and nothing is stored', async () => {
    const { block } = await blockOnPage();
    const cases: Array<[unknown[], string[]]> = [
      [[{ op: 'rename', from: 'headin', to: 'title' }], ['migrations[0].from']],
      [[{ op: 'rename', from: 'heading', to: 'titel' }], ['migrations[0].to']],
      [
        [
          { op: 'drop', from: 'subtitle' },
          { op: 'move', from: 'items[].nope', to: 'items[].text' },
        ],
        ['migrations[1].from'],
      ],
      [[{ op: 'set', to: 'theme', value: 'blue' }], ['migrations[0].value']],
      [[{ op: 'convert', from: 'items', to: 'price' }], ['migrations[0].from']],
      [
        [
          { op: 'rename', from: 'price', to: 'title' },
          { op: 'rename', from: 'title', to: 'price' },
        ],
        ['migrations[1].to'], // title (text) back into price (a number): convert, not rename
      ],
      [[{ op: 'derive', to: 'title', expression: '{% if %}' }], ['migrations[0].expression']],
      [[{ op: 'derive', to: 'title', expression: 'x'.repeat(5000) }], ['migrations[0].expression']],
    ];
    for (const [migrations, paths] of cases) {
      const r = await putBlock(block.id, { schema_content: v2, migrations });
      expect(r.status, JSON.stringify(migrations)).toBe(422);
      expect(r.body.errors.map((e: { path: string }) => e.path)).toEqual(paths);
    }
    // A cycle of renames between fields both revisions have.
    const both = [
      { name: 'a', type: 'string' },
      { name: 'b', type: 'string' },
    ];
    const cyc = await createBlock(t, user, { name: 'Cycle', schema_content: both });
    const cycle = await putBlock(cyc.id, {
      template: '<p></p>',
      migrations: [
        { op: 'rename', from: 'a', to: 'b' },
        { op: 'rename', from: 'b', to: 'a' },
      ],
    });
    expect(cycle.status).toBe(422);
    expect(cycle.body.errors[0]).toMatchObject({ path: 'migrations[1].to' });
    expect(cycle.body.errors[0].message).toMatch(/cycle/);
    // Without a new revision only fixes of the current one: a rename is refused at its op.
    const none = await putBlock(cyc.id, { name: 'Renamed', migrations: [{ op: 'rename', from: 'a', to: 'b' }] });
    expect(none.status).toBe(422);
    expect(none.body.errors[0].path).toBe('migrations[0].op');
    // A block with no revision yet has nothing to migrate from.
    const bare = await t.call('POST', '/api/v1/blocks', { key: user.key, body: { name: 'Bare' } });
    const first = await putBlock(bare.body.id, {
      schema_content: both,
      migrations: [{ op: 'set', to: 'a', value: 'x' }],
    });
    expect(first.status).toBe(422);
    expect(first.body.errors[0].path).toBe('migrations');
    expect((await getBlock(block.id)).version).toEqual({ major: 1, minor: 0 });
    expect((await getBlock(cyc.id)).version).toEqual({ major: 1, minor: 0 });
  });
});

describe('POST /pages/{pageId}/blocks/{pbId}/migrate', () => {
  it('takes one instance through the chain in one page version; a dry run changes nothing', async () => {
    const { block, page, pbId } = await blockOnPage();
    await putBlock(block.id, { schema_content: v2, migrations: v2Steps });
    const before = await getPage(page.id);
    const tried = await migrate(page.id, pbId, dry);
    expect(tried.status).toBe(200);
    expect(await getPage(page.id)).toEqual(before);
    const done = await migrate(page.id, pbId);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: pbId, from: { major: 1, minor: 0 }, to: { major: 2, minor: 0 } });
    expect(done.body.migrated).toContainEqual({
      version: { major: 2, minor: 0 },
      step: 0,
      op: 'rename',
      from: 'heading',
      path: 'title',
      before: 'Spring sale',
      after: 'Spring sale',
    });
    expect(done.body.migrated).toContainEqual(
      expect.objectContaining({ op: 'convert', path: 'price', before: '12.50', after: 12.5 }),
    );
    const after = await getPage(page.id);
    expect(after.version).toBe(before.version + 1);
    expect(done.body.page.version).toBe(after.version);
    expect(after.blocks[0].version).toEqual({ major: 2, minor: 0 });
    expect(after.blocks[0].update_status).toBe('up_to_date');
    expect(after.blocks[0].placeholder_values).toEqual({
      title: 'Spring sale',
      author: { name: 'Ann' },
      price: 12.5,
      theme: 'dark',
      items: [{ text: 'one' }, { text: 'two' }],
    });
    const history = await t.call('GET', `/api/v1/pages/${page.id}/versions`, { key: user.key });
    expect(history.body.total).toBe(2);
  });

  it('chains three revisions, minor and major, derive included', async () => {
    const { block, page, pbId } = await blockOnPage();
    await putBlock(block.id, { schema_content: v2, migrations: v2Steps });
    const v21 = [...v2, { name: 'note', type: 'string' }];
    await putBlock(block.id, { schema_content: v21, migrations: [{ op: 'set', to: 'note', value: 'checked' }] });
    const v3 = [
      { name: 'headline', type: 'string', required: true, max_length: 40 },
      { name: 'byline', type: 'string' },
      { name: 'price', type: 'number' },
      { name: 'note', type: 'string' },
    ];
    const steps3 = [
      { op: 'rename', from: 'title', to: 'headline' },
      { op: 'derive', to: 'byline', expression: 'by {{ author.name | upcase }} ({{ items | size }} items)' },
      { op: 'drop', from: 'author' },
      { op: 'drop', from: 'theme' },
      { op: 'drop', from: 'items' },
    ];
    const r = await putBlock(block.id, { schema_content: v3, migrations: steps3 });
    expect(r.status).toBe(200);
    expect(r.body.block.version).toEqual({ major: 3, minor: 0 });
    const done = await migrate(page.id, pbId);
    expect(done.status, done.text).toBe(200);
    expect(done.body.to).toEqual({ major: 3, minor: 0 });
    const after = await getPage(page.id);
    expect(after.blocks[0].placeholder_values).toEqual({
      headline: 'Spring sale',
      byline: 'by ANN (2 items)',
      price: 12.5,
      note: 'checked',
    });
    expect(after.version).toBe(page.version + 1);
  });

  it('values that would not validate afterwards are 400 at their paths, and nothing changes', async () => {
    const { block, page, pbId } = await blockOnPage({ ...values1, heading: 'A heading far too long', price: 'twelve' });
    const tight = v2.map((f) => (f.name === 'title' ? { ...f, max_length: 5 } : f));
    await putBlock(block.id, { schema_content: tight, migrations: v2Steps });
    const before = await getPage(page.id);
    const conversion = await migrate(page.id, pbId);
    expect(conversion.status).toBe(400);
    expect(conversion.body.errors).toEqual([expect.objectContaining({ path: 'placeholder_values.price' })]);
    await t.call('PUT', `/api/v1/pages/${page.id}/blocks/${pbId}`, {
      key: user.key,
      body: { placeholder_values: { ...values1, heading: 'A heading far too long' } },
    });
    const between = await getPage(page.id);
    const invalid = await migrate(page.id, pbId);
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.map((e: { path: string }) => e.path)).toEqual(['placeholder_values.title']);
    expect(await getPage(page.id)).toEqual(between);
    expect(between.version).toBe(before.version + 1);
  });

  it('a derive that would run forever or build too much is stopped, and refused', async () => {
    const { block, page, pbId } = await blockOnPage();
    const forever = '{% for a in (1..100000) %}{% for b in (1..100000) %}x{% endfor %}{% endfor %}';
    await putBlock(block.id, {
      schema_content: v2,
      migrations: [
        ...v2Steps.slice(1),
        { op: 'derive', to: 'title', expression: forever },
        { op: 'drop', from: 'heading' },
      ],
    });
    const started = Date.now();
    const r = await migrate(page.id, pbId);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.status).toBe(400);
    expect(r.body.errors[0].path).toBe('placeholder_values.title');
    expect(r.body.errors[0].message).toMatch(/longer than|more than/);
    expect((await getPage(page.id)).blocks[0].version).toEqual({ major: 1, minor: 0 });
    // A huge output is refused as well (the renderer's memory limit, or the derive's own output limit).
    const huge = await createBlock(t, user, { name: 'Huge', schema_content: [{ name: 'a', type: 'string' }] });
    const hugePage = await createPage(t, user, {
      name: 'Huge',
      site_id: site.id,
      blocks: [{ block_id: huge.id, placeholder_values: { a: 'x' } }],
    });
    await putBlock(huge.id, {
      schema_content: [{ name: 'b', type: 'string' }],
      migrations: [
        {
          op: 'derive',
          to: 'b',
          expression: '{% assign s = a %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s }}',
        },
        { op: 'drop', from: 'a' },
      ],
    });
    const big = await migrate(hugePage.id, hugePage.blocks[0].id);
    expect(big.status).toBe(400);
    expect(big.body.errors[0].message).toMatch(/over the limit|more than|too large/);
  });

  it("another user's page is a 404, and an instance already up to date a 422", async () => {
    const { block, page, pbId } = await blockOnPage();
    await putBlock(block.id, { schema_content: v2, migrations: v2Steps });
    expect((await migrate(page.id, pbId, { key: other.key })).status).toBe(404);
    expect((await migrate(page.id, pbId)).status).toBe(200);
    expect((await migrate(page.id, pbId)).status).toBe(422);
  });

  it('fixes values where they stand (point 6): steps added to the current revision, applied by migrate', async () => {
    const fields = [
      { name: 'title', type: 'string', required: true, max_length: 60 },
      { name: 'body', type: 'string' },
    ];
    const block = await createBlock(t, user, { name: 'Fix', schema_content: fields });
    const long = 'A title well over ten characters';
    const page = await createPage(t, user, {
      name: 'Fixes',
      site_id: site.id,
      blocks: [
        { block_id: block.id, placeholder_values: { title: long } },
        { block_id: block.id, placeholder_values: { title: 'Short' } },
      ],
    });
    // A tightened max_length and a new required field without a default: a minor, and no instance can take it.
    const tighter = [
      { ...fields[0], max_length: 10 },
      fields[1],
      { name: 'cta_label', type: 'string', required: true },
    ];
    const minor = await putBlock(block.id, { schema_content: tighter });
    expect(minor.body.version_bump).toBe('minor');
    const [a, b] = page.blocks.map((x: { id: number }) => x.id);
    expect((await migrate(page.id, a)).status).toBe(400);
    // One step for every instance: cut to 10 characters, and one value for the new field.
    const fix = await putBlock(block.id, {
      migrations: [
        { op: 'derive', to: 'title', expression: '{{ title | slice: 0, 10 }}' },
        { op: 'default', to: 'cta_label', value: 'Read more' },
      ],
    });
    expect(fix.status, fix.text).toBe(200);
    expect(fix.body.version_bump).toBe('none');
    expect(fix.body.block.version).toEqual({ major: 1, minor: 1 });
    const tried = await migrate(page.id, a, dry);
    expect(tried.status, tried.text).toBe(200);
    expect((await migrate(page.id, a)).status).toBe(200);
    expect((await migrate(page.id, b)).status).toBe(200);
    const after = await getPage(page.id);
    expect(after.blocks.map((x: { placeholder_values: unknown }) => x.placeholder_values)).toEqual([
      { title: 'A title we', cta_label: 'Read more' },
      { title: 'Short', cta_label: 'Read more' },
    ]);
  });
});
