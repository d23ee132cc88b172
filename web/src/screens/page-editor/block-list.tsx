import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { Stack } from '@mantine/core';
import { useState } from 'react';
import { BlockItem } from './block-item';
import { displayNames } from './display-names';
import { dragAnnouncements, dragInstructions } from './drag-announcements';
import { overTarget } from './drop-ids';
import { dropMove, layoutTargets, reparentMove, stepMove, treeRows, type Move } from './nesting';
import type { Instance } from './use-page-blocks';

/** Names the list. */
const LABEL = 'Blocks on the page';

/**
 * The page's blocks as a tree: layouts with their children indented under
 * them, as a list of cards (the panel beside the page is as narrow as a
 * phone, and nothing scrolls sideways in it). Drag by the handle (mouse,
 * touch or keyboard) onto a block to take its place, or onto a layout's drop
 * zone to go inside it; or use Move up/down (among siblings) and "Place in"
 * (into a layout, or back onto the page).
 */
export function BlockList({
  blocks,
  onMove,
  onRemove,
  onEdit,
  onAddInto,
  busy,
}: {
  blocks: Instance[];
  onMove: (move: Move) => void;
  onRemove: (instance: Instance) => void;
  onEdit: (instance: Instance) => void;
  onAddInto: (layout: Instance) => void;
  busy: boolean;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const [dragging, setDragging] = useState(false);
  const rows = treeRows(blocks);
  const names = displayNames(blocks);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragging(false);
    const move = dropMove(blocks, Number(active.id), overTarget(over?.id));
    if (move) onMove(move);
  };
  const items = rows.map(({ instance, depth, siblings }, index) => (
    <BlockItem
      key={instance.id}
      instance={instance}
      names={names}
      number={index + 1}
      depth={depth}
      first={siblings[0] === instance.id}
      last={siblings[siblings.length - 1] === instance.id}
      parentName={instance.parent_page_block_id === null ? undefined : names[instance.parent_page_block_id]}
      targets={layoutTargets(blocks, instance.id)}
      busy={busy}
      dragging={dragging}
      onStep={(step) => {
        const move = stepMove(blocks, instance.id, step);
        if (move) onMove(move);
      }}
      onPlace={(parent) => {
        const move = reparentMove(blocks, instance.id, parent);
        if (move) onMove(move);
      }}
      onRemove={onRemove}
      onEdit={onEdit}
      onAddInto={onAddInto}
    />
  ));
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      accessibility={{ announcements: dragAnnouncements(blocks, names), screenReaderInstructions: dragInstructions }}
      onDragStart={() => setDragging(true)}
      onDragCancel={() => setDragging(false)}
      onDragEnd={onDragEnd}
    >
      <SortableContext items={rows.map((r) => r.instance.id)} strategy={verticalListSortingStrategy}>
        <Stack component="ol" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={LABEL}>
          {items}
        </Stack>
      </SortableContext>
    </DndContext>
  );
}
