import type { Active, Over } from '@dnd-kit/core';
import { describe, expect, it } from 'vitest';
import { dragAnnouncements } from '../src/screens/page-editor/drag-announcements';
import type { Instance } from '../src/screens/page-editor/use-page-blocks';
import { pageInstance } from './fake-api';

const blocks = [
  pageInstance({ id: 1, block: { id: 10, name: 'Hero' } }),
  pageInstance({ id: 2, block: { id: 11, name: 'Two columns', kind: 'layout' } }),
] as unknown as Instance[];
const say = dragAnnouncements(blocks);
const active = { id: 1 } as Active;
const over = (id: string | number) => ({ id }) as Over;

describe('drag announcements', () => {
  it('names the blocks instead of their ids', () => {
    expect(say.onDragStart({ active })).toBe('Picked up Hero.');
    expect(say.onDragOver({ active, over: over(2) })).toBe('Hero would go in the place of Two columns.');
    expect(say.onDragEnd({ active, over: over(2) })).toBe('Hero was dropped in the place of Two columns.');
  });

  it("says inside for a layout's drop zone and where it was for the block itself", () => {
    expect(say.onDragOver({ active, over: over('into-2') })).toBe('Hero would go inside Two columns.');
    expect(say.onDragEnd({ active, over: over(1) })).toBe('Hero was dropped where it was.');
  });

  it('says the block stays when dropped outside the list or cancelled', () => {
    expect(say.onDragEnd({ active, over: null })).toBe('Hero was dropped outside the list and stays where it was.');
    expect(say.onDragCancel({ active, over: null })).toBe('Moving Hero was cancelled; it stays where it was.');
  });
});
