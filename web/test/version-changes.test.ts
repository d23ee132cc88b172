import { describe, expect, it } from 'vitest';
import {
  metadataLabel,
  parsePath,
  shortValue,
  valueLabel,
  type PlacedBlock,
} from '../src/screens/page-editor/version-changes';

describe('a version diff in words', () => {
  const blocks: PlacedBlock[] = [
    { name: 'Hero', schema: { properties: { heading_text: { title: 'Heading' } } } },
    {
      name: 'Events',
      schema: { properties: { items: { title: 'Items', items: { properties: { title: { title: 'Event title' } } } } } },
    },
  ];

  it('names a value by its block and its fields’ labels, list items counted from 1', () => {
    expect(valueLabel('blocks[0].placeholder_values.heading_text', blocks)).toBe('Hero › Heading');
    expect(valueLabel('blocks[1].placeholder_values.items[2].title', blocks)).toBe('Events › Items 3 › Event title');
    expect(valueLabel('blocks[1].placeholder_values.items[0]', blocks)).toBe('Events › Items 1');
    expect(valueLabel('blocks[1].bindings.feed.params.limit', blocks)).toBe(
      'Events › Live data › Feed › Params › Limit',
    );
  });

  it('falls back to words made from the names, and to the path when it is no value path', () => {
    expect(valueLabel('blocks[0].placeholder_values.sub_title', blocks)).toBe('Hero › Sub title');
    expect(valueLabel('blocks[5].placeholder_values["odd key"]', blocks)).toBe('Block 6 › Odd key');
    expect(valueLabel('name', blocks)).toBe('name');
    expect(parsePath('blocks[0].placeholder_values.a[x]')).toBeNull();
  });

  it('says values and metadata fields shortly', () => {
    expect(metadataLabel('meta_title')).toBe('Meta title');
    expect(shortValue(undefined)).toBe('(none)');
    expect(shortValue('')).toBe('(empty)');
    expect(shortValue({ a: 1 })).toBe('{"a":1}');
    expect(shortValue('x'.repeat(100)).length).toBe(80);
  });
});
