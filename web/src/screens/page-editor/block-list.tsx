import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useDroppable,
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
import { ActionIcon, Anchor, Badge, Button, Group, NativeSelect, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { dropMove, layoutTargets, reparentMove, stepMove, treeRows, type Move } from './nesting';
import type { Instance } from './use-page-blocks';

const STATUS = {
  up_to_date: 'Up to date',
  outdated_minor: 'Minor update available',
  outdated_major: 'Major change available',
} as const;

/** dnd-kit ids: a row is its instance id; a layout's drop zone is `into-<id>`. */
const zoneId = (id: number) => `into-${id}`;
function overTarget(id: string | number | undefined): { id: number; into?: boolean } | null {
  if (id === undefined) return null;
  if (typeof id === 'string' && id.startsWith('into-')) return { id: Number(id.slice(5)), into: true };
  return { id: Number(id) };
}

/**
 * The page's blocks as a tree: layouts with their children indented under
 * them. Drag by the handle (mouse, touch or keyboard) onto a row to take its
 * place, or onto a layout's drop zone to go inside it; or use Move up/down
 * (among siblings) and "Place in" (into a layout, or back onto the page).
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
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragging(false);
    const move = dropMove(blocks, Number(active.id), overTarget(over?.id));
    if (move) onMove(move);
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragStart={() => setDragging(true)}
      onDragCancel={() => setDragging(false)}
      onDragEnd={onDragEnd}
    >
      <SortableContext items={rows.map((r) => r.instance.id)} strategy={verticalListSortingStrategy}>
        <Table.ScrollContainer minWidth={720}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">#</Table.Th>
                <Table.Th scope="col">Block</Table.Th>
                <Table.Th scope="col">Version</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
                <Table.Th scope="col">Place in</Table.Th>
                <Table.Th scope="col">Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map(({ instance, depth, siblings }, index) => (
                <BlockRow
                  key={instance.id}
                  instance={instance}
                  number={index + 1}
                  depth={depth}
                  first={siblings[0] === instance.id}
                  last={siblings[siblings.length - 1] === instance.id}
                  parentName={blocks.find((b) => b.id === instance.parent_page_block_id)?.block.name}
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
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </SortableContext>
    </DndContext>
  );
}

function BlockRow({
  instance,
  number,
  depth,
  first,
  last,
  parentName,
  targets,
  busy,
  dragging,
  onStep,
  onPlace,
  onRemove,
  onEdit,
  onAddInto,
}: {
  instance: Instance;
  number: number;
  depth: number;
  first: boolean;
  last: boolean;
  parentName: string | undefined;
  targets: Instance[];
  busy: boolean;
  dragging: boolean;
  onStep: (step: -1 | 1) => void;
  onPlace: (parent: number | null) => void;
  onRemove: (instance: Instance) => void;
  onEdit: (instance: Instance) => void;
  onAddInto: (layout: Instance) => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: instance.id,
  });
  const name = instance.block.name;
  const layout = instance.block.kind === 'layout';
  return (
    <>
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
            {number}
          </Group>
        </Table.Td>
        <Table.Th scope="row" fw={400} style={{ paddingLeft: `calc(var(--mantine-spacing-xs) + ${depth * 1.5}rem)` }}>
          <Group gap={6} wrap="nowrap">
            {depth > 0 && (
              <Text span c="dimmed" aria-hidden>
                ↳
              </Text>
            )}
            <Anchor component={Link} to={`/blocks/${instance.block.id}`}>
              {name}
            </Anchor>
            {layout && (
              <Badge size="xs" variant="light">
                Layout
              </Badge>
            )}
          </Group>
          {parentName && (
            <Text size="xs" c="dimmed">
              inside {parentName}
            </Text>
          )}
        </Table.Th>
        <Table.Td>{`${instance.version.major}.${instance.version.minor}`}</Table.Td>
        <Table.Td>{STATUS[instance.update_status]}</Table.Td>
        <Table.Td>
          <NativeSelect
            size="xs"
            aria-label={`Place ${name} in`}
            disabled={busy || (targets.length === 0 && instance.parent_page_block_id === null)}
            value={instance.parent_page_block_id === null ? '' : String(instance.parent_page_block_id)}
            onChange={(event) => onPlace(event.currentTarget.value === '' ? null : Number(event.currentTarget.value))}
            data={[
              { value: '', label: 'The page' },
              ...targets.map((t) => ({ value: String(t.id), label: `${t.block.name} (#${t.id})` })),
            ]}
          />
        </Table.Td>
        <Table.Td>
          <Group gap={4} wrap="nowrap">
            <Button size="compact-xs" aria-label={`Edit ${name}`} onClick={() => onEdit(instance)}>
              Edit
            </Button>
            {layout && (
              <Button
                size="compact-xs"
                variant="light"
                aria-label={`Add inside ${name}`}
                onClick={() => onAddInto(instance)}
              >
                Add inside
              </Button>
            )}
            <Button
              size="compact-xs"
              variant="default"
              aria-label={`Move ${name} up`}
              disabled={busy || first}
              onClick={() => onStep(-1)}
            >
              Up
            </Button>
            <Button
              size="compact-xs"
              variant="default"
              aria-label={`Move ${name} down`}
              disabled={busy || last}
              onClick={() => onStep(1)}
            >
              Down
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
      {layout && dragging && !isDragging && <DropZone layout={instance} depth={depth + 1} />}
    </>
  );
}

/** Shown under each layout while a block is dragged: dropping here puts the block at the end of the layout. */
function DropZone({ layout, depth }: { layout: Instance; depth: number }) {
  const { setNodeRef, isOver } = useDroppable({ id: zoneId(layout.id) });
  return (
    <Table.Tr ref={setNodeRef} aria-label={`Drop here to put the block into ${layout.block.name}`}>
      <Table.Td
        colSpan={6}
        style={{
          paddingLeft: `calc(var(--mantine-spacing-xs) + ${depth * 1.5}rem)`,
          border: '2px dashed var(--mantine-color-blue-4)',
          background: isOver ? 'var(--mantine-color-blue-0)' : undefined,
        }}
      >
        <Text size="sm" c="blue">
          Drop here to put it into {layout.block.name}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
