import type { Announcements, ScreenReaderInstructions, UniqueIdentifier } from '@dnd-kit/core';
import { overTarget } from './drop-ids';
import type { Instance } from './use-page-blocks';

/** Read to a screen reader when the drag handle has focus. */
export const dragInstructions: ScreenReaderInstructions = {
  draggable:
    'To move this block, press Space or Enter to pick it up, the arrow keys to move it, ' +
    'Space or Enter again to drop it, or Escape to put it back.',
};

/**
 * dnd-kit's live-region messages, in block names rather than its default
 * "draggable item 3 was moved over droppable area 2".
 */
export function dragAnnouncements(blocks: Instance[], names: Record<number, string> = {}): Announcements {
  const name = (id: UniqueIdentifier) => {
    const found = blocks.find((b) => b.id === overTarget(id)?.id);
    return found ? (names[found.id] ?? found.block.name) : 'the block';
  };
  const where = (active: UniqueIdentifier, over: UniqueIdentifier) => {
    if (overTarget(over)?.into) return `inside ${name(over)}`;
    if (over === active) return 'where it was';
    return `in the place of ${name(over)}`;
  };
  return {
    onDragStart: ({ active }) => `Picked up ${name(active.id)}.`,
    onDragOver: ({ active, over }) =>
      over ? `${name(active.id)} would go ${where(active.id, over.id)}.` : `${name(active.id)} is over no place.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `${name(active.id)} was dropped ${where(active.id, over.id)}.`
        : `${name(active.id)} was dropped outside the list and stays where it was.`,
    onDragCancel: ({ active }) => `Moving ${name(active.id)} was cancelled; it stays where it was.`,
  };
}
