/**
 * Issue 29, point 5: what the block editor's field mapping shows before a
 * major save. `PUT /blocks/{id}` (and its dry run) adds `migration_impact`
 * when the update removes fields: how many of the caller's instances hold a
 * value in each, and with the update's `migrations`, how many instances they
 * take across and how many `migrate` would still refuse, and why. Both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

let t: TestApp;
let user: TestUser;
let site: { id: number };

beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  site = await newSite(t, user);
});
afterAll(() => t.close());

const put = (id: number, body: unknown, dry = true) =>
  t.call('PUT', `/api/v1/blocks/${id}`, { key: user.key, body, ...(dry && { query: { dry_run: 1 } }) });

const v1 = [
  { name: 'heading', type: 'string', required: true },
  { name: 'subtitle', type: 'string' },
  { name: 'price', type: 'string' },
  { name: 'items', type: 'array', items: { type: 'object', fields: [{ name: 'caption', type: 'string' }] } },
];
const v2 = [
  { name: 'title', type: 'string', required: true },
  { name: 'cost', type: 'number' },
  { name: 'items', type: 'array', items: { type: 'object', fields: [{ name: 'text', type: 'string' }] } },
];

/** Three instances on two pages: two with a subtitle, one whose price is no number. */
async function used() {
  const block = await createBlock(t, user, { name: 'Card', template: '<h2>{{ heading }}</h2>', schema_content: v1 });
  const one = { heading: 'One', subtitle: 'Sub', price: '12.5', items: [{ caption: 'a' }, { caption: '' }] };
  const two = { heading: 'Two', subtitle: '', price: 'twelve', items: [] };
  const three = { heading: 'Three', subtitle: 'Sub 3', price: '3' };
  const instances = (list: object[]) => list.map((values) => ({ block_id: block.id, placeholder_values: values }));
  await createPage(t, user, { name: 'A', site_id: site.id, blocks: instances([one, two]) });
  await createPage(t, user, { name: 'B', site_id: site.id, blocks: instances([three]) });
  return block;
}

describe('migration_impact of a major block update', () => {
  it('counts the instances holding a value in each removed field, before any mapping', async () => {
    const block = await used();
    const res = await put(block.id, { schema_content: v2 });
    expect(res.status).toBe(200);
    expect(res.body.removed_fields).toEqual(['heading', 'subtitle', 'price', 'items[].caption']);
    expect(res.body.migration_impact).toEqual({
      // Empty text is no value; a list item's caption counts once per instance.
      holding: [
        { field: 'heading', instances: 3 },
        { field: 'subtitle', instances: 2 },
        { field: 'price', instances: 3 },
        { field: 'items[].caption', instances: 1 },
      ],
      migratable: 0,
      blocked: 0,
      reasons: [],
    });
  });

  it('with migrations: the instances they take across, and those migrate would refuse, by field', async () => {
    const block = await used();
    const migrations = [
      { op: 'rename', from: 'heading', to: 'title' },
      { op: 'drop', from: 'subtitle' },
      { op: 'convert', from: 'price', to: 'cost' },
      { op: 'rename', from: 'items[].caption', to: 'items[].text' },
    ];
    const dry = await put(block.id, { schema_content: v2, migrations });
    expect(dry.status).toBe(200);
    expect(dry.body.migration_impact.migratable).toBe(3);
    expect(dry.body.migration_impact.blocked).toBe(1);
    expect(dry.body.migration_impact.reasons).toEqual([
      {
        field: 'price',
        code: expect.any(String),
        instances: 1,
        message: expect.stringContaining('"twelve" is not a number'),
      },
    ]);
    // Leaving one removed field uncovered: no instance is migratable.
    const partial = await put(block.id, { schema_content: v2, migrations: migrations.slice(0, 3) });
    expect(partial.body.migration_impact).toMatchObject({ migratable: 0, blocked: 0, reasons: [] });
    // The real save answers what its dry run said.
    const real = await put(block.id, { schema_content: v2, migrations }, false);
    expect(real.body.migration_impact).toEqual(dry.body.migration_impact);
  });

  it('is null when the update removes nothing', async () => {
    const block = await used();
    const res = await put(block.id, { schema_content: [...v1, { name: 'badge', type: 'string' }] });
    expect(res.body.version_bump).toBe('minor');
    expect(res.body.migration_impact).toBeNull();
  });
});
