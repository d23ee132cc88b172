/**
 * Issue 29, point 3: `PUT /blocks/{id}` and its dry run keep `version_bump`
 * as the API rules define it and add `upgrade_impact`: the caller's instances
 * behind the new version, and those that would not validate on it, by field
 * and constraint. The three cases of the issue: a tightened max_length, a new
 * required field without a default, a nested field made required. Both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { admin, newSite, startWithTwoUsers, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

let t: TestApp, user: TestUser, other: TestUser, site: { id: number };

beforeAll(async () => ({ t, user, other, site } = await startWithTwoUsers()));
afterAll(() => t.close());

const put = (who: TestUser, id: number, body: unknown, dry = false) =>
  t.call('PUT', `/api/v1/blocks/${id}`, { key: who.key, body, ...(dry && { query: { dry_run: 1 } }) });

const fields = [
  { name: 'title', type: 'string', required: true, max_length: 60 },
  { name: 'cta', type: 'object', fields: [{ name: 'label', type: 'string' }] },
];

/** A block on two pages: four instances with long titles, one with a short one, one upgraded ahead of time. */
async function used() {
  const block = await createBlock(t, user, { name: 'Card', template: '<h2>{{ title }}</h2>', schema_content: fields });
  const long = 'A title well over ten';
  const instances = (titles: string[]) =>
    titles.map((title, i) => ({ block_id: block.id, placeholder_values: { title, ...(i % 2 ? { cta: {} } : {}) } }));
  await createPage(t, user, { name: 'One', site_id: site.id, blocks: instances([long, long, 'Short']) });
  await createPage(t, user, { name: 'Two', site_id: site.id, blocks: instances([long, long]) });
  return block;
}

describe('upgrade_impact at every block update', () => {
  it('counts the instances a tightened max_length refuses, by field and constraint; a minor, as the rules say', async () => {
    const block = await used();
    const tightened = fields.map((f) => (f.name === 'title' ? { ...f, max_length: 10 } : f));
    const dry = await put(user, block.id, { schema_content: tightened }, true);
    expect(dry.status).toBe(200);
    expect(dry.body.version_bump).toBe('minor');
    expect(dry.body.upgrade_impact).toEqual({
      to: { major: 1, minor: 1 },
      instances: 5,
      behind: 5,
      behind_major: 0,
      would_not_validate: 4,
      migratable: 0,
      reasons: [
        {
          field: 'title',
          constraint: 'max_length',
          from: 60,
          to: 10,
          code: 'too_long',
          instances: 4,
          message: 'title: max_length 60 → 10: 4 instances hold longer text',
        },
      ],
    });
    // The dry run changed nothing; the real call answers the same impact.
    expect((await t.call('GET', `/api/v1/blocks/${block.id}`, { key: user.key })).body.version).toEqual({
      major: 1,
      minor: 0,
    });
    const real = await put(user, block.id, { schema_content: tightened });
    expect(real.body.upgrade_impact).toEqual(dry.body.upgrade_impact);
  });

  it('names a new required field without a default, and a nested field made required', async () => {
    const block = await used();
    const stricter = [
      { name: 'title', type: 'string', required: true, max_length: 60 },
      { name: 'cta', type: 'object', fields: [{ name: 'label', type: 'string', required: true }] },
      { name: 'cta_label', type: 'string', required: true },
    ];
    const r = await put(user, block.id, { schema_content: stricter }, true);
    expect(r.body.version_bump).toBe('minor');
    const impact = r.body.upgrade_impact;
    expect(impact).toMatchObject({ instances: 5, behind: 5, would_not_validate: 5 });
    expect(impact.reasons).toEqual([
      expect.objectContaining({
        field: 'cta_label',
        constraint: 'required',
        from: null,
        to: true,
        code: 'required',
        instances: 5,
        message: 'cta_label: required none → true: 5 instances have no value and no default',
      }),
      // Only the instances holding a `cta` object without its label (the others have no cta at all).
      expect.objectContaining({ field: 'cta.label', constraint: 'required', from: null, to: true, instances: 2 }),
    ]);
    // A default makes the new field no reason: an upgrade fills it in.
    const withDefault = stricter.map((f) => (f.name === 'cta_label' ? { ...f, default: 'Go' } : f));
    const again = await put(user, block.id, { schema_content: withDefault }, true);
    expect(again.body.upgrade_impact.reasons.map((x: any) => x.field)).toEqual(['cta.label']);
  });

  it('counts instances behind, not those on the new version; a major keeps its bump and counts them as behind_major', async () => {
    const block = await used();
    expect((await put(user, block.id, { template: '<h3>{{ title }}</h3>' })).body.version_bump).toBe('minor');
    const pages = (await t.call('GET', '/api/v1/pages', { key: user.key, query: { limit: 100 } })).body.data;
    const two = pages.filter((p: any) => p.name === 'Two').at(-1);
    const upgraded = await t.call('POST', `/api/v1/pages/${two.id}/blocks/upgrade-all`, { key: user.key });
    expect(upgraded.status).toBe(200);
    const none = await put(user, block.id, { name: 'Card, renamed' }, true);
    expect(none.body.version_bump).toBe('none');
    expect(none.body.upgrade_impact).toMatchObject({ to: { major: 1, minor: 1 }, instances: 5, behind: 3 });
    const major = await put(user, block.id, { schema_content: [fields[0]] }, true);
    expect(major.body.version_bump).toBe('major');
    expect(major.body.removed_fields).toEqual(['cta']);
    expect(major.body.upgrade_impact).toMatchObject({
      to: { major: 2, minor: 0 },
      behind: 5,
      behind_major: 5,
      would_not_validate: 0,
    });
  });

  it("counts instances as the update's migrations make them: a derive fixes a tightened max_length, a rename makes a major migratable", async () => {
    const block = await used();
    const tightened = fields.map((f) => (f.name === 'title' ? { ...f, max_length: 10 } : f));
    const cut = await put(
      user,
      block.id,
      {
        schema_content: tightened,
        migrations: [{ op: 'derive', to: 'title', expression: '{{ title | slice: 0, 10 }}' }],
      },
      true,
    );
    expect(cut.status).toBe(200);
    expect(cut.body.version_bump).toBe('minor');
    expect(cut.body.upgrade_impact).toMatchObject({ behind: 5, would_not_validate: 0, migratable: 0, reasons: [] });

    const renamed = [{ ...fields[0], name: 'heading' }, fields[1]];
    const unmapped = await put(user, block.id, { schema_content: renamed }, true);
    expect(unmapped.body.version_bump).toBe('major');
    expect(unmapped.body.upgrade_impact).toMatchObject({ behind_major: 5, would_not_validate: 5, migratable: 0 });
    const mapped = await put(
      user,
      block.id,
      { schema_content: renamed, migrations: [{ op: 'rename', from: 'title', to: 'heading' }] },
      true,
    );
    expect(mapped.status).toBe(200);
    expect(mapped.body.version_bump).toBe('major');
    expect(mapped.body.upgrade_impact).toMatchObject({ behind_major: 5, would_not_validate: 0, migratable: 5 });
    // A step that cannot make a value counts its instance, at its field.
    const failing = await put(
      user,
      block.id,
      {
        schema_content: [{ ...fields[0], name: 'heading', max_length: 10 }, fields[1]],
        migrations: [{ op: 'rename', from: 'title', to: 'heading' }],
      },
      true,
    );
    expect(failing.body.upgrade_impact).toMatchObject({ would_not_validate: 4, migratable: 1 });
    expect(failing.body.upgrade_impact.reasons.map((x: any) => [x.field, x.constraint])).toEqual([
      ['heading', 'max_length'],
    ]);
  });

  it("counts only the caller's instances of a global block", async () => {
    const boss = await admin(t);
    const created = await t.call('POST', '/api/admin/blocks', {
      cookie: boss.cookie,
      body: { name: 'Shared', template: '<p>{{ title }}</p>', schema_content: fields },
    });
    const shared = created.body.id as number;
    await createPage(t, other, {
      name: 'Theirs',
      site_id: (await newSite(t, other)).id,
      blocks: [{ block_id: shared, placeholder_values: { title: 'A title well over ten' } }],
    });
    const tightened = fields.map((f) => (f.name === 'title' ? { ...f, max_length: 10 } : f));
    const r = await t.call('PUT', `/api/admin/blocks/${shared}`, {
      cookie: boss.cookie,
      body: { schema_content: tightened },
      query: { dry_run: 1 },
    });
    expect(r.status).toBe(200);
    expect(r.body.upgrade_impact).toMatchObject({ instances: 0, behind: 0, would_not_validate: 0, reasons: [] });
  });
});
