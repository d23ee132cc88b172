import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Anchor, Button, Group, Table } from '@mantine/core';
import { Link } from 'react-router';
import type { Instance } from './use-page-blocks';

const STATUS = {
  up_to_date: 'Up to date',
  outdated_minor: 'Minor update available',
  outdated_major: 'Major change available',
} as const;

/** Where a drag of `activeId` over `overId` puts it, or null when nothing moves. */
export function dropPosition(ids: number[], activeId: number, overId: number | null): number | null {
  if (overId === null || activeId === overId) return null;
  const to = ids.indexOf(overId);
  return ids.indexOf(activeId) < 0 || to < 0 ? null : to;
}

/** The page's blocks in order: drag by the handle (mouse, touch or keyboard), or the Move up/down buttons. */
export function BlockList({
  blocks,
  onMove,
  onRemove,
  onEdit,
  busy,
}: {
  blocks: Instance[];
  onMove: (pbId: number, position: number) => void;
  onRemove: (instance: Instance) => void;
  onEdit: (instance: Instance) => void;
  busy: boolean;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = blocks.map((b) => b.id);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const position = dropPosition(ids, Number(active.id), over ? Number(over.id) : null);
    if (position !== null) onMove(Number(active.id), position);
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">#</Table.Th>
              <Table.Th scope="col">Block</Table.Th>
              <Table.Th scope="col">Version</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {blocks.map((instance, index) => (
              <Row
                key={instance.id}
                instance={instance}
                index={index}
                last={index === blocks.length - 1}
                busy={busy}
                onMove={onMove}
                onRemove={onRemove}
                onEdit={onEdit}
              />
            ))}
          </Table.Tbody>
        </Table>
      </SortableContext>
    </DndContext>
  );
}

function Row({
  instance,
  index,
  last,
  busy,
  onMove,
  onRemove,
  onEdit,
}: {
  instance: Instance;
  index: number;
  last: boolean;
  busy: boolean;
  onMove: (pbId: number, position: number) => void;
  onRemove: (instance: Instance) => void;
  onEdit: (instance: Instance) => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: instance.id,
  });
  const name = instance.block.name;
  return (
    <Table.Tr
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.6 : undefined }}
    >
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            ref={setActivatorNodeRef}
            variant="subtle"
            color="gray"
            aria-label={`Drag ${name}`}
            style={{ cursor: 'grab', touchAction: 'none' }}
            {...attributes}
            {...listeners}
          >
            ⠿
          </ActionIcon>
          {index + 1}
        </Group>
      </Table.Td>
      <Table.Th scope="row" fw={400}>
        <Anchor component={Link} to={`/blocks/${instance.block.id}`}>
          {name}
        </Anchor>
      </Table.Th>
      <Table.Td>{`${instance.version.major}.${instance.version.minor}`}</Table.Td>
      <Table.Td>{STATUS[instance.update_status]}</Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Button size="compact-xs" aria-label={`Edit ${name}`} onClick={() => onEdit(instance)}>
            Edit
          </Button>
          <Button
            size="compact-xs"
            variant="default"
            aria-label={`Move ${name} up`}
            disabled={busy || index === 0}
            onClick={() => onMove(instance.id, index - 1)}
          >
            Move up
          </Button>
          <Button
            size="compact-xs"
            variant="default"
            aria-label={`Move ${name} down`}
            disabled={busy || last}
            onClick={() => onMove(instance.id, index + 1)}
          >
            Move down
          </Button>
          <Button
            size="compact-xs"
            variant="subtle"
            color="red"
            aria-label={`Remove ${name}`}
            onClick={() => onRemove(instance)}
          >
            Remove
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
