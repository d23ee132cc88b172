import { describe, expect, it } from 'vitest';
import {
  chainCoverage,
  checkMigrations,
  migrateValues,
  type DeriveFn,
  type MigrationLink,
} from '../../../src/modules/blocks/migrations/index.js';
import type { FieldDefinition } from '../../../src/modules/blocks/schema/index.js';

const v = (major: number, minor = 0) => ({ major, minor });
const link = (version: ReturnType<typeof v>, fields: FieldDefinition[], migrations: unknown[]): MigrationLink => ({
  version,
  fields,
  migrations: migrations as MigrationLink['migrations'],
});

/** A stand-in for the render thread's LiquidJS: `{{ a }}-{{ b }}` only. */
const derive: DeriveFn = (expression, scope) => ({
  ok: true,
  text: expression.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => {
    const value = name.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], scope);
    return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  }),
});

describe('migrateValues: each step', () => {
  it('rename and move, in and out of objects and list items', () => {
    const fields: FieldDefinition[] = [
      { name: 'title', type: 'string' },
      { name: 'author', type: 'object', fields: [{ name: 'name', type: 'string' }] },
      { name: 'hero_image', type: 'image' },
      {
        name: 'slides',
        type: 'array',
        items: {
          type: 'object',
          fields: [
            { name: 'text', type: 'string' },
            { name: 'image', type: 'image' },
          ],
        },
      },
      { name: 'first_caption', type: 'string' },
    ];
    const out = migrateValues(
      {
        heading: 'Hi',
        author_name: 'Ann',
        items: [{ caption: 'a' }, { caption: 'b' }],
        slides: [{ image: '/x.png' }],
        cover: '/c.png',
      },
      [
        link(v(2), fields, [
          { op: 'rename', from: 'heading', to: 'title' },
          { op: 'move', from: 'author_name', to: 'author.name' },
          { op: 'move', from: 'items[].caption', to: 'slides[].text' },
          { op: 'move', from: 'slides[0].image', to: 'hero_image' },
          { op: 'move', from: 'cover', to: 'slides[1].image' },
        ]),
      ],
    );
    expect(out.problems).toEqual([]);
    expect(out.values).toEqual({
      title: 'Hi',
      author: { name: 'Ann' },
      items: [{}, {}],
      slides: [{ text: 'a' }, { text: 'b', image: '/c.png' }],
      hero_image: '/x.png',
    });
    expect(out.migrated.map((m) => [m.op, m.from, m.path])).toEqual([
      ['rename', 'heading', 'title'],
      ['move', 'author_name', 'author.name'],
      ['move', 'items[0].caption', 'slides[0].text'],
      ['move', 'items[1].caption', 'slides[1].text'],
      ['move', 'slides[0].image', 'hero_image'],
      ['move', 'cover', 'slides[1].image'],
    ]);
  });

  it('set, default where missing, drop', () => {
    const fields: FieldDefinition[] = [
      { name: 'theme', type: 'select', options: ['light', 'dark'] },
      { name: 'cta_label', type: 'string' },
      { name: 'links', type: 'array', items: { type: 'object', fields: [{ name: 'rel', type: 'string' }] } },
    ];
    const out = migrateValues({ theme: 'light', subtitle: 'gone', links: [{ rel: 'me' }, {}] }, [
      link(v(2), fields, [
        { op: 'set', to: 'theme', value: 'dark' },
        { op: 'default', to: 'cta_label', value: 'Read more' },
        { op: 'default', to: 'links[].rel', value: 'nofollow' },
        { op: 'drop', from: 'subtitle' },
      ]),
    ]);
    expect(out.values).toEqual({ theme: 'dark', cta_label: 'Read more', links: [{ rel: 'me' }, { rel: 'nofollow' }] });
    expect(out.migrated.find((m) => m.op === 'drop')).toMatchObject({ path: 'subtitle', before: 'gone' });
  });

  it('convert between string, number, boolean and list; what cannot convert is a problem at its path', () => {
    const fields: FieldDefinition[] = [
      { name: 'price', type: 'number' },
      { name: 'count', type: 'integer' },
      { name: 'shown', type: 'boolean' },
      { name: 'tags', type: 'array', items: { type: 'string' } },
      { name: 'label', type: 'string' },
    ];
    const steps = [
      { op: 'convert', from: 'price' },
      { op: 'convert', from: 'shown' },
      { op: 'convert', from: 'tags' },
      { op: 'convert', from: 'stars', to: 'label', separator: ';' },
    ];
    const out = migrateValues({ price: ' 12.5 ', shown: 'yes', tags: 'a, b,,c', stars: ['x', 'y'] }, [
      link(v(2), fields, steps),
    ]);
    expect(out.problems).toEqual([]);
    expect(out.values).toEqual({ price: 12.5, shown: true, tags: ['a', 'b', 'c'], label: 'x; y' });
    const bad = migrateValues({ price: 'twelve', count: '2.5' }, [
      link(v(2), fields, [
        { op: 'convert', from: 'price' },
        { op: 'convert', from: 'count' },
      ]),
    ]);
    expect(bad.problems.map((p) => [p.path, p.step])).toEqual([
      ['price', 0],
      ['count', 1],
    ]);
  });

  it('derive, in a list item too, its text read as the field’s kind', () => {
    const fields: FieldDefinition[] = [
      { name: 'full_name', type: 'string' },
      { name: 'total', type: 'number' },
      { name: 'rows', type: 'array', items: { type: 'object', fields: [{ name: 'label', type: 'string' }] } },
    ];
    const out = migrateValues(
      { first: 'Ann', last: 'Lee', n: 3, rows: [{ t: 'x' }, { t: 'y' }] },
      [
        link(v(2), fields, [
          { op: 'derive', to: 'full_name', expression: '{{ first }} {{ last }}' },
          { op: 'derive', to: 'total', expression: '{{ n }}' },
          { op: 'derive', to: 'rows[].label', expression: '{{ item.t }}!' },
        ]),
      ],
      derive,
    );
    expect(out.values).toMatchObject({ full_name: 'Ann Lee', total: 3, rows: [{ label: 'x!' }, { label: 'y!' }] });
  });

  it('a derive over its limits stops the migration', () => {
    const fields: FieldDefinition[] = [{ name: 'a', type: 'string' }];
    let calls = 0;
    const out = migrateValues(
      { x: 1 },
      [
        link(v(2), fields, [
          { op: 'derive', to: 'a', expression: 'slow' },
          { op: 'set', to: 'a', value: 'never' },
        ]),
      ],
      () => (calls++, { ok: false, message: 'rendering took longer than 1000 ms', limit: true }),
    );
    expect(calls).toBe(1);
    expect(out.problems).toHaveLength(1);
    expect(out.values).toEqual({ x: 1 });
  });

  it('chains three revisions, each with its steps, defaults filled between', () => {
    const r2: FieldDefinition[] = [
      { name: 'title', type: 'string' },
      { name: 'tone', type: 'string', default: 'calm' },
    ];
    const r3: FieldDefinition[] = [
      { name: 'headline', type: 'string' },
      { name: 'mood', type: 'string' },
    ];
    const out = migrateValues({ heading: 'Hi' }, [
      link(v(2), r2, [{ op: 'rename', from: 'heading', to: 'title' }]),
      link(v(3), r3, [
        { op: 'rename', from: 'title', to: 'headline' },
        { op: 'rename', from: 'tone', to: 'mood' },
      ]),
    ]);
    expect(out.values).toEqual({ headline: 'Hi', mood: 'calm' });
    expect(out.migrated.map((m) => `${m.version.major}:${m.from}->${m.path}`)).toEqual([
      '2:heading->title',
      '3:title->headline',
      '3:tone->mood',
    ]);
  });

  it('leaves the values it is given unchanged', () => {
    const values = { a: { b: 1 } };
    migrateValues(values, [link(v(2), [{ name: 'c', type: 'number' }], [{ op: 'move', from: 'a.b', to: 'c' }])]);
    expect(values).toEqual({ a: { b: 1 } });
  });
});

describe('checkMigrations', () => {
  const before: FieldDefinition[] = [
    { name: 'heading', type: 'string' },
    { name: 'count', type: 'string' },
    { name: 'author', type: 'object', fields: [{ name: 'name', type: 'string' }] },
    { name: 'items', type: 'array', items: { type: 'object', fields: [{ name: 'caption', type: 'string' }] } },
  ];
  const after: FieldDefinition[] = [
    { name: 'title', type: 'string', max_length: 10 },
    { name: 'count', type: 'number' },
    { name: 'author_name', type: 'string' },
    { name: 'captions', type: 'array', items: { type: 'string' } },
    { name: 'theme', type: 'select', options: ['a', 'b'] },
  ];
  const errorsOf = (steps: unknown[]) => {
    const check = checkMigrations(steps, before, after);
    return check.ok ? [] : check.errors.map((e) => e.path);
  };

  it('accepts steps whose paths are in the right revisions', () => {
    expect(
      errorsOf([
        { op: 'rename', from: 'heading', to: 'title' },
        { op: 'convert', from: 'count' },
        { op: 'move', from: 'author.name', to: 'author_name' },
        { op: 'drop', from: 'items' },
        { op: 'default', to: 'theme', value: 'a' },
        { op: 'derive', to: 'title', expression: '{{ heading }}' },
      ]),
    ).toEqual(['migrations[5].to']); // title is written by migrations[0]
  });

  it('a wrong path is refused at its exact place', () => {
    expect(errorsOf([{ op: 'rename', from: 'headin', to: 'title' }])).toEqual(['migrations[0].from']);
    expect(errorsOf([{ op: 'rename', from: 'heading', to: 'titel' }])).toEqual(['migrations[0].to']);
    expect(errorsOf([{ op: 'drop', from: 'items[].nope' }])).toEqual(['migrations[0].from']);
    expect(errorsOf([{ op: 'set', to: 'theme', value: 'c' }])).toEqual(['migrations[0].value']);
    expect(errorsOf([{ op: 'move', from: 'heading', to: 'count' }])).toEqual(['migrations[0].to']);
    expect(errorsOf([{ op: 'jump', from: 'heading' }])).toEqual(['migrations[0].op']);
    expect(errorsOf([{ op: 'drop', from: 'heading', to: 'x' }])).toEqual(['migrations[0].to']);
    expect(errorsOf([{ op: 'convert', from: 'author', to: 'count' }])).toEqual(['migrations[0].from']);
    expect(errorsOf([{ op: 'derive', to: 'title', expression: 'x'.repeat(5000) }])).toEqual([
      'migrations[0].expression',
    ]);
  });

  it('a value read after it was moved away, and a cycle of renames, are refused', () => {
    const a: FieldDefinition[] = [
      { name: 'a', type: 'string' },
      { name: 'b', type: 'string' },
    ];
    const check = (steps: unknown[]) => {
      const c = checkMigrations(steps, a, a);
      return c.ok ? [] : c.errors.map((e) => `${e.path} ${e.code}`);
    };
    expect(
      check([
        { op: 'rename', from: 'a', to: 'b' },
        { op: 'rename', from: 'b', to: 'a' },
      ]),
    ).toEqual(['migrations[1].to invalid']);
    expect(
      check([
        { op: 'rename', from: 'a', to: 'b' },
        { op: 'drop', from: 'a' },
      ]),
    ).toEqual(['migrations[1].from conflict']);
  });
});

describe('chainCoverage', () => {
  it('a chain is migratable when every removed field of every link is carried or dropped', () => {
    const r1: FieldDefinition[] = [
      { name: 'heading', type: 'string' },
      { name: 'sub', type: 'string' },
    ];
    const r2: FieldDefinition[] = [{ name: 'title', type: 'string' }];
    const covered = [
      link(v(2), r2, [
        { op: 'rename', from: 'heading', to: 'title' },
        { op: 'drop', from: 'sub' },
      ]),
    ];
    expect(chainCoverage(r1, covered)).toEqual({ migratable: true, uncovered: [] });
    const partial = [link(v(2), r2, [{ op: 'rename', from: 'heading', to: 'title' }])];
    expect(chainCoverage(r1, partial)).toEqual({ migratable: false, uncovered: [{ field: 'sub', version: v(2) }] });
  });
});
