import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compilePlaceholderSchema,
  ValidatorCache,
  type FieldDefinition,
} from '../../src/modules/blocks/schema/index.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';

/*
 * Random schema edits with their migrations, over random values: a block at
 * 1.0 on a page, changed (fields renamed, dropped, retyped, tightened, added,
 * required or not), the steps given for some of the changes and not others;
 * then POST .../migrate. Either it goes through, and the stored values
 * validate on the new revision and every renamed or kept value is there as it
 * was (converted where retyped); or it is refused (400 at a value, 422 when
 * not migratable) and the page is exactly as before. Runs on the database the
 * run is configured for (SQLite, or PostgreSQL with DATABASE_URL).
 */

const RUNS = Number(process.env.MIGRATION_RUNS ?? 25);

let t: TestApp;
let user: TestUser;
let site: { id: number };
beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  site = await newSite(t, user);
});
afterAll(() => t.close());

type Kind = 'string' | 'number' | 'boolean';
type Edit = 'keep' | 'rename' | 'drop' | 'retype' | 'tighten';
interface Field {
  name: string;
  type: Kind;
  required: boolean;
}
interface Case {
  fields: Field[];
  values: Array<string | number | boolean | null>;
  edits: Edit[];
  retypes: Kind[];
  /** Whether each change's step is given (a drop or rename left out: not migratable). */
  given: boolean[];
  added: Array<{ required: boolean; filled: boolean; withDefault: boolean }>;
}

const NAMES = ['a', 'b', 'c', 'd'];
const kind = fc.constantFrom<Kind>('string', 'number', 'boolean');
const valueOf = (k: Kind): fc.Arbitrary<string | number | boolean> =>
  k === 'string'
    ? fc.oneof(fc.stringMatching(/^[a-z0-9 ]{1,12}$/), fc.constantFrom('12', 'yes', '0'))
    : k === 'number'
      ? fc.integer({ min: -50, max: 5000 })
      : fc.boolean();

const aCase: fc.Arbitrary<Case> = fc.integer({ min: 1, max: 4 }).chain((n) =>
  fc
    .record({
      types: fc.array(kind, { minLength: n, maxLength: n }),
      required: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      edits: fc.array(fc.constantFrom<Edit>('keep', 'rename', 'drop', 'retype', 'tighten'), {
        minLength: n,
        maxLength: n,
      }),
      retypes: fc.array(kind, { minLength: n, maxLength: n }),
      given: fc.array(fc.boolean(), { minLength: n, maxLength: n }).map((g) => g.map((x, i) => x || i % 2 === 0)),
      added: fc.array(fc.record({ required: fc.boolean(), filled: fc.boolean(), withDefault: fc.boolean() }), {
        maxLength: 2,
      }),
    })
    .chain((r) => {
      const fields = r.types.map((type, i) => ({ name: NAMES[i]!, type, required: r.required[i]! }));
      return fc
        .tuple(...fields.map((f) => (f.required ? valueOf(f.type) : fc.option(valueOf(f.type)))))
        .map((values) => ({ fields, values, edits: r.edits, retypes: r.retypes, given: r.given, added: r.added }));
    }),
);

const def = (f: Field, extra: Record<string, unknown> = {}): FieldDefinition => ({
  name: f.name,
  type: f.type,
  ...(f.required && { required: true }),
  ...(f.required && f.type === 'string' && { default: 'd' }),
  ...extra,
});

/** The new fields, the steps, and what each old value should become (by new name) when it goes through. */
function plan(c: Case) {
  const after: FieldDefinition[] = [];
  const steps: Array<Record<string, unknown>> = [];
  const expected = new Map<string, (old: unknown) => boolean>();
  c.fields.forEach((f, i) => {
    const edit = c.edits[i]!;
    const given = c.given[i]!;
    if (edit === 'keep') {
      after.push(def(f));
      expected.set(f.name, () => true);
    } else if (edit === 'rename') {
      const to = `${f.name}_new`;
      after.push(def({ ...f, name: to }));
      if (given) steps.push({ op: 'rename', from: f.name, to });
      expected.set(to, () => true);
    } else if (edit === 'drop') {
      if (given) steps.push({ op: 'drop', from: f.name });
    } else if (edit === 'retype') {
      const type = c.retypes[i]!;
      after.push(def({ ...f, type }));
      if (type !== f.type) steps.push({ op: 'convert', from: f.name });
      expected.set(f.name, () => false); // converted: checked by validation alone
    } else {
      after.push(def(f, f.type === 'string' ? { max_length: 3 } : f.type === 'number' ? { max: 100 } : {}));
      expected.set(f.name, () => true);
    }
  });
  c.added.forEach((a, i) => {
    const name = `n${i}`;
    after.push({
      name,
      type: 'string',
      ...(a.required && { required: true }),
      ...(a.withDefault && { default: 'from default' }),
    });
    if (a.filled) steps.push({ op: 'default', to: name, value: 'filled' });
  });
  // Always a change: a new revision to migrate to.
  after.push({ name: 'marker', type: 'string' });
  return { after, steps, expected };
}

describe('migrate over random schema edits and values', () => {
  it('goes through with values that validate on the new revision and keep what was mapped, or changes nothing', async () => {
    const validators = new ValidatorCache();
    const outcomes = { done: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(aCase, async (c) => {
        const before = c.fields.map((f) => def(f));
        const values: Record<string, unknown> = {};
        c.fields.forEach((f, i) => {
          if (c.values[i] !== null) values[f.name] = c.values[i];
        });
        const block = await t.call('POST', '/api/v1/blocks', {
          key: user.key,
          body: { name: 'Prop', template: '<p></p>', schema_content: before },
        });
        expect(block.status, block.text).toBe(201);
        const page = await t.call('POST', '/api/v1/pages', {
          key: user.key,
          body: { name: 'P', site_id: site.id, blocks: [{ block_id: block.body.id, placeholder_values: values }] },
        });
        expect(page.status, page.text).toBe(201);
        const { after, steps, expected } = plan(c);
        const put = await t.call('PUT', `/api/v1/blocks/${block.body.id}`, {
          key: user.key,
          body: { schema_content: after, migrations: steps },
        });
        expect(put.status, put.text).toBe(200);
        const read = async () =>
          (await t.call('GET', `/api/v1/pages/${page.body.id}`, { key: user.key, query: { with_blocks: 1 } })).body;
        const was = await read();
        const pbId = was.blocks[0].id;
        const r = await t.call('POST', `/api/v1/pages/${page.body.id}/blocks/${pbId}/migrate`, { key: user.key });
        const now = await read();
        if (r.status === 200) {
          outcomes.done++;
          const stored = now.blocks[0].placeholder_values as Record<string, unknown>;
          expect(now.blocks[0].version).toEqual(put.body.block.version);
          expect(now.version).toBe(was.version + 1);
          const schema = compilePlaceholderSchema(after, 'schema');
          expect(validators.validate(JSON.stringify(schema), schema, stored)).toEqual([]);
          c.fields.forEach((f, i) => {
            if (!(f.name in values)) return;
            const at = c.edits[i] === 'rename' ? `${f.name}_new` : f.name;
            if (expected.get(at)?.(values[f.name])) expect(stored[at]).toEqual(values[f.name]);
          });
          for (const [i, f] of c.fields.entries()) if (c.edits[i] === 'drop') expect(stored).not.toHaveProperty(f.name);
        } else {
          outcomes.refused++;
          expect([400, 422], r.text).toContain(r.status);
          expect(now).toEqual(was);
        }
      }),
      { numRuns: RUNS },
    );
    // Both ways were met: the property is not about one of them alone.
    expect(outcomes.done).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  });
});
