import { describe, expect, it } from 'vitest';
import {
  buildMigrations,
  errorsByRow,
  guessChoices,
  mappingRows,
  plainReason,
} from '../src/screens/block-editor/field-mapping';
import type { EditorField } from '../src/screens/block-editor/field-editor';

const before = [
  { name: 'heading', type: 'string', label: 'Heading' },
  { name: 'price', type: 'string' },
  { name: 'author', type: 'object', fields: [{ name: 'name', type: 'string' }] },
  { name: 'items', type: 'array', items: { type: 'object', fields: [{ name: 'caption', type: 'string' }] } },
  { name: 'events', type: 'binding' },
];
const after = [
  { name: 'title', type: 'string', label: 'Heading' },
  { name: 'cost', type: 'number' },
  { name: 'author', type: 'object', fields: [{ name: 'full_name', type: 'string' }] },
  { name: 'items', type: 'array', items: { type: 'object', fields: [{ name: 'text', type: 'string' }] } },
  { name: 'meta', type: 'object', fields: [{ name: 'note', type: 'text' }] },
];
const removed = ['heading', 'price', 'author.name', 'items[].caption', 'events'];

describe('the field mapping of a breaking save', () => {
  const rows = mappingRows(removed, before, after);
  const row = (path: string) => rows.find((r) => r.path === path)!;

  it('offers the added fields as deep in lists, with the step each takes and why some cannot', () => {
    expect(rows.map((r) => r.path)).toEqual(removed);
    const heading = row('heading');
    expect(heading.targets.map((t) => [t.path, t.op, t.refused])).toEqual([
      ['title', 'rename', null],
      ['cost', 'convert', null],
      ['author.full_name', 'move', null],
      ['meta.note', 'move', null],
      ['meta', 'convert', 'heading holds text, meta takes a group of fields'],
    ]);
    // Only fields in list items take a list item's values, item to item.
    expect(row('items[].caption').targets.map((t) => t.path)).toEqual(['items[].text']);
    // A binding holds no value to carry.
    expect(row('events').targets.every((t) => t.refused === 'bindings hold no values')).toBe(true);
  });

  it('guesses the field renamed in the editor, one removed and one added in an object, and a shared label', () => {
    const fields: EditorField[] = [{ key: 'k', original: 'price', def: { name: 'cost', type: 'number' } }];
    expect(guessChoices(rows, fields)).toEqual([
      { to: 'title' },
      { to: 'cost' },
      { to: 'author.full_name' },
      { to: 'items[].text' },
      null,
    ]);
  });

  it('builds one step a row, in order, and places a refusal at its row', () => {
    const built = buildMigrations(rows, [
      { to: 'title' },
      { to: 'cost' },
      { to: 'author.full_name' },
      { to: 'items[].text' },
      { drop: true },
    ]);
    expect(built?.steps).toEqual([
      { op: 'rename', from: 'heading', to: 'title' },
      { op: 'convert', from: 'price', to: 'cost' },
      { op: 'rename', from: 'author.name', to: 'author.full_name' },
      { op: 'rename', from: 'items[].caption', to: 'items[].text' },
      { op: 'drop', from: 'events' },
    ]);
    expect(buildMigrations(rows, [{ to: 'title' }, null, null, null, null])).toBeNull();
    const placed = errorsByRow(
      [
        { path: 'migrations[1].to', message: 'migrations[0] already writes title; see migrations[0].' },
        { path: 'schema_content', message: 'other' },
      ],
      built!.rowOf,
      rows,
    );
    expect([...placed.rows]).toEqual([
      [1, ['The choice for heading already writes title; see the choice for heading.']],
    ]);
    expect(placed.other).toEqual(['other']);
  });

  it('says a reason without the step it comes from', () => {
    expect(plainReason('convert price: "twelve" is not a number. (migrations of 2.0, step 2)')).toBe(
      '"twelve" is not a number.',
    );
    expect(plainReason('Too long.')).toBe('Too long.');
  });
});
